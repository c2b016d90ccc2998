#if FUZZING
import CFuzzerDriver
#endif
import Foundation

/// A fuzz target: called with one input, returns 0 (libFuzzer's convention). It traps when an
/// invariant does not hold, which is what the fuzzer reports as a crash. Each program also names
/// it `LLVMFuzzerTestOneInput` with `@_cdecl`: libFuzzer's own `main`, linked in but hidden by
/// SwiftPM's, refers to that symbol.
public typealias FuzzTarget = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32

/// Runs `target` the way the build asks for.
///
/// Built with `-DFUZZING -sanitize=fuzzer,address` (`make fuzz`), hands the command line to
/// libFuzzer, which runs `target` on generated inputs. In a normal build the program replays the
/// files (or the files in the folders) named on its command line once each, so a corpus or a
/// crash input can be checked without the fuzzing toolchain: `fuzz-vcard Tests/Fuzz/corpus/vcard`.
public func runFuzzTarget(_ target: FuzzTarget) -> Never {
    #if FUZZING
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, target))
    #else
    let program = (CommandLine.arguments.first as NSString?)?.lastPathComponent ?? "fuzz"
    let paths = CommandLine.arguments.dropFirst()
    guard !paths.isEmpty else {
        FileHandle.standardError.write(Data("usage: \(program) FILE|FOLDER...  (replays each input once)\n".utf8))
        exit(64)
    }
    var count = 0
    for path in paths {
        for file in inputFiles(path) {
            guard let data = FileManager.default.contents(atPath: file) else {
                FileHandle.standardError.write(Data("\(file): cannot read\n".utf8))
                exit(66)
            }
            _ = data.withUnsafeBytes { target($0.baseAddress?.assumingMemoryBound(to: UInt8.self), $0.count) }
            count += 1
        }
    }
    print("\(program): \(count) inputs replayed, no invariant broken")
    exit(0)
    #endif
}

/// `path` itself, or the regular files directly inside it when it is a folder, sorted.
private func inputFiles(_ path: String) -> [String] {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue,
        let names = try? FileManager.default.contentsOfDirectory(atPath: path)
    else { return [path] }
    return names.sorted().map { (path as NSString).appendingPathComponent($0) }
}

/// The bytes of one fuzz input.
public func fuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
}

/// `bytes` cut at every NUL: how targets that take several strings (arguments, header fields)
/// read one input. Invalid UTF-8 is repaired, as `String(decoding:)` does with a command line.
public func nulSeparatedStrings(_ bytes: [UInt8]) -> [String] {
    bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
}
