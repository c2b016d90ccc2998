import Foundation
import LocalTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// File names people do not expect: a line break in the name, bytes that are not UTF-8. Shown
/// readably and shared, never refused and never shown as the command's own stand-in.
@Suite("share, unusual file names")
final class FileNameTests {
    let fixture: CommandFolder
    var folder: URL { fixture.url }

    init() throws {
        fixture = try CommandFolder([:])
    }

    private func share(_ arguments: [String]) async throws -> ShareBinary.Run {
        try await ShareBinary.run(arguments, in: folder)
    }

    /// The result object of a `--json` run.
    private func result(_ run: ShareBinary.Run) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any], "\(run)")
    }

    // MARK: Line breaks

    @Test("a name with a line break is listed escaped, on one line")
    func lineBreakIsListedEscaped() async throws {
        try Data("numbers\n".utf8).write(to: folder.appendingPathComponent("a\nb.txt"))
        let list = try await share(["--list", "a\nb.txt"])
        #expect(list.status == 0, "\(list)")
        #expect(list.standardOutput.contains("\n  a\\nb.txt  text file"), "\(list)")
        let json = try await share(["--list", "--json", "a\nb.txt"])
        let items = try #require(try result(json)["items"] as? [[String: Any]])
        #expect(items.first?["label"] as? String == "a\\nb.txt")
    }

    @Test("a missing file whose name has a CR or LF: one line naming it escaped")
    func lineBreakInAnErrorIsEscaped() async throws {
        let run = try await share(["--activity", "copy", "no\r\npe.txt"])
        #expect(run.status == 66, "\(run)")
        #expect(run.standardError == "share: no\\r\\npe.txt: no such file\n", "\(run)")
    }

    @Test("a backend's error naming a file with a line break is still one line")
    func backendErrorIsOneLine() async throws {
        // Named .png but holding text: Save to Photos takes it, then finds it is no image.
        try Data("not a picture".utf8).write(to: folder.appendingPathComponent("bad\nimage.png"))
        let run = try await share(["--activity", "photos", "bad\nimage.png"])
        #expect(run.status == 65, "\(run)")
        #expect(run.standardError.hasPrefix("share: ") && run.standardError.filter { $0 == "\n" }.count == 1, "\(run)")
        #expect(run.standardError.contains("bad\\nimage.png: not an image or video"), "\(run)")
    }

    @Test("mailed, a name with a line break is attached with a space instead (it used to be refused)")
    func lineBreakIsSentAsASpace() async throws {
        try Data("numbers\n".utf8).write(to: folder.appendingPathComponent("q3\nfinal.txt"))
        let run = try await share(["--activity", "mail", "--json", "--to", "a@example.com", "q3\nfinal.txt"])
        // Queued, with no mail server set up.
        #expect(run.status == 75, "\(run)")
        let queued = try #require(try result(run)["location"] as? String, "\(run)")
        let message = try String(contentsOfFile: queued, encoding: .utf8)
        #expect(message.contains("filename=\"q3 final.txt\"") || message.contains("filename=q3 final.txt"), "\(message)")
        #expect(!message.contains("q3\nfinal"), "\(message)")
    }

    // MARK: Names that are not UTF-8

    /// Makes `caf\xE9 a;b.txt` (Latin-1) in the test's folder, holding `text`; returns the
    /// bytes of its absolute path.
    private func makeLatin1File(_ text: String) throws -> [UInt8] {
        let path = Array(folder.path.utf8) + Array("/caf".utf8) + [0xE9] + Array(" a;b.txt".utf8)
        let descriptor = (path + [0]).withUnsafeBufferPointer { pointer in
            pointer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o600) }
        }
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        #expect(bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count)
        return path
    }

    /// Runs `share ARGUMENTS… caf\xE9 a;b.txt`, the name's byte given by `printf`.
    private func shareLatin1(_ arguments: [String]) async throws -> ShareBinary.Run {
        let quoted = arguments.map(ShareBinary.shellQuoted).joined(separator: " ")
        return try await ShareBinary.run(
            [], in: folder, prefix: ["/bin/sh", "-c", "exec \"$0\" \(quoted) \"$(printf 'caf\\351 a;b.txt')\""])
    }

    @Test("a Latin-1 name is listed as its name, U+FFFD for the byte, never as the command's stand-in path")
    func latin1NameIsShownAsItsName() async throws {
        _ = try makeLatin1File("hello")
        let json = try await shareLatin1(["--list", "--json"])
        #expect(json.status == 0, "\(json)")
        let items = try #require(try result(json)["items"] as? [[String: Any]])
        #expect(items.first?["label"] as? String == "caf\u{FFFD} a;b.txt", "\(json)")
        #expect(!json.standardOutput.contains("argument-names"), "\(json)")
        let text = try await shareLatin1(["--list"])
        #expect(text.standardOutput.contains("\n  caf\u{FFFD} a;b.txt  text file"), "\(text)")
    }

    @Test("Copy puts a Latin-1 name's real path on the pasteboard, byte for byte (percent-encoded in the link list)")
    func copyPutsTheRealPath() async throws {
        _ = try makeLatin1File("hello")
        let copied = try await shareLatin1(["--activity", "copy"])
        #expect(copied.status == 0, "\(copied)")
        // No display here: the copy goes to the pasteboard file, and `share paste` into a pipe
        // gives its bytes back as they are. A text file's text is its contents; its path is in
        // the link list (RawPathTests check a path as text, for a file that is not text).
        let output = folder.appendingPathComponent("pasted")
        let pasted = try await ShareBinary.run(
            [], in: folder, prefix: ["/bin/sh", "-c", "exec \"$0\" paste > '\(output.path)'"])
        #expect(pasted.status == 0, "\(pasted)")
        #expect(try Data(contentsOf: output) == Data("hello".utf8))
        let list = try await ShareBinary.run(
            [], in: folder, prefix: ["/bin/sh", "-c", "exec \"$0\" paste --type text/uri-list > '\(output.path)'"])
        #expect(list.status == 0, "\(list)")
        let uri = String(decoding: try Data(contentsOf: output), as: UTF8.self)
        #expect(uri == "file://\(folder.path)/caf%E9%20a%3Bb.txt\r\n", "\(uri)")
    }
}
