import Foundation
import LocalTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A file whose name is not UTF-8 (Latin-1 `café`, from an old archive) is shared like any
/// other: the command reads its arguments' raw bytes.
@Suite("share, file names that are not UTF-8")
final class RawFileNameTests {
    let fixture: CommandFolder
    var folder: URL { fixture.url }

    init() throws {
        fixture = try CommandFolder([:])
    }

    private static let samplePNG = Sample.url("sunset.png")

    /// Writes `bytes` to the file named `caf\xE9 a;b.png` in the test's folder (Foundation
    /// cannot name it, so through the C library).
    private func writeLatin1File(_ bytes: [UInt8]) throws {
        let name: [UInt8] = Array("caf".utf8) + [0xE9] + Array(" a;b.png".utf8)
        let path = Array(folder.path.utf8) + [UInt8(ascii: "/")] + name + [0]
        let descriptor = path.withUnsafeBufferPointer { pointer in
            pointer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o600) }
        }
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        #expect(bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count)
    }

    /// Runs `share ARGUMENTS… NAME` where NAME's bytes come from `printf` (a Swift `Process`
    /// can only pass UTF-8 arguments).
    private func share(_ arguments: [String], rawName: String) async throws -> ShareBinary.Run {
        let quoted = arguments.map { "'\($0)'" }.joined(separator: " ")
        return try await ShareBinary.run(
            [], in: folder, prefix: ["/bin/sh", "-c", "exec \"$0\" \(quoted) \"$(printf '\(rawName)')\""])
    }

    @Test func aLatin1NamedPictureIsSavedToPhotos() async throws {
        let png = try [UInt8](Data(contentsOf: Self.samplePNG))
        try writeLatin1File(png)
        let run = try await share(["--activity", "photos", "--json"], rawName: "caf\\351 a;b.png")
        #expect(run.status == 0, "\(run)")
        let result = try #require(
            try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any], "\(run)")
        #expect(result["disposition"] as? String == "saved", "\(run)")
        let saved = try #require((result["returnedItems"] as? [String])?.first, "\(run)")
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: saved))) == png)
        // The name reads as the file's, its one Latin-1 byte shown as U+FFFD.
        #expect(saved.hasSuffix(" a;b.png"), "\(saved)")
        #expect(saved.contains("caf\u{FFFD}"), "\(saved)")
    }

    @Test func aMissingLatin1NameIsOneLineAndExit66() async throws {
        let run = try await share(["--activity", "copy"], rawName: "nope\\351.txt")
        #expect(run.status == 66, "\(run)")
        #expect(run.standardError == "share: nope\u{FFFD}.txt: no such file\n", "\(run)")
    }
}
