// Sample files for tests that send them to a peer, and comparing what arrived.
import Foundation

/// The repository's sample files in `Examples/Samples` (`sunset.png`, a real 64×40 PNG;
/// `notes.txt`), which the README's examples share too.
public enum Sample {
    /// The sample `name`.
    public static func url(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Examples/Samples").appendingPathComponent(name)
    }
}

/// Writes a file of `size` pseudo-random bytes (a fixed pattern per seed), in blocks. Used by the
/// Nearby tests and the window tests for files to send.
public func writeRandomFile(_ url: URL, size: Int, seed: UInt64 = 1) throws {
    _ = FileManager.default.createFile(atPath: url.path, contents: nil)
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
    var remaining = size
    let blockSize = 1 << 20
    while remaining > 0 {
        let count = min(blockSize, remaining)
        var block = [UInt8](repeating: 0, count: count)
        block.withUnsafeMutableBytes { raw in
            let words = raw.bindMemory(to: UInt64.self)
            for index in 0..<words.count {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                words[index] = state
            }
        }
        try handle.write(contentsOf: block)
        remaining -= count
    }
}

/// True when both files hold the same bytes (compared in blocks): a sent file and what arrived.
public func filesAreIdentical(_ first: URL, _ second: URL) -> Bool {
    guard let a = FileHandle(forReadingAtPath: first.path), let b = FileHandle(forReadingAtPath: second.path) else { return false }
    defer {
        try? a.close()
        try? b.close()
    }
    while true {
        let blockA = a.readData(ofLength: 1 << 20)
        let blockB = b.readData(ofLength: 1 << 20)
        if blockA != blockB { return false }
        if blockA.isEmpty { return true }
    }
}
