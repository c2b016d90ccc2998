import Foundation
import LocalTestSupport
import Testing

/// What a killed print leaves behind (#15, #28): every temporary file carries its writer's PID,
/// and the next print removes those whose writer is gone and keeps a running one's. Run as a
/// person would: the built binary, no printer (so Print saves a PDF), a private TMPDIR.
@Suite("Print: temporary files a killed print left")
struct AbandonedTemporaryTests {
    /// Runs `share` in `home` with no CUPS server listening, standard input from `input`.
    private func share(_ arguments: [String], home: URL, temporary: URL, input: Command.Input = .null) throws -> Command.Result {
        let binary = try #require(Share.url, "the share executable was not found next to the test bundle")
        let environment = [
            "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
            "XDG_DATA_HOME": home.appendingPathComponent(".local/share").path,
            "CUPS_SERVER": "127.0.0.1:\(try Loopback.freePort())", "TMPDIR": temporary.path,
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "COLUMNS": "80",
        ]
        return try Command.run(binary.path, arguments, environment: environment, in: home, input: input)
    }

    @Test("Save as PDF: a dead copy's temporary file in Documents goes at the next save; a running one's stays")
    func saveAsPDFTemporaries() throws {
        let home = try TemporaryFolder("home")
        defer { home.remove() }
        let temporary = try home.folder("tmp")
        let documents = try home.folder("Documents")
        let dead = ".sharesheet-print.\(try Command.deadPID()).\(UUID().uuidString).tmp"
        let alive = ".sharesheet-print.\(getpid()).\(UUID().uuidString).tmp"
        for name in [dead, alive] { try Data("%PDF-1.4 half".utf8).write(to: documents.appendingPathComponent(name)) }
        let text = home.file("page.txt")
        try "One page.".write(to: text, atomically: true, encoding: .utf8)

        let run = try share(["--activity", "print", text.path], home: home.url, temporary: temporary)
        #expect(run.status == 0, "\(run)")
        let left = try FileManager.default.contentsOfDirectory(atPath: documents.path).sorted()
        #expect(left == [alive, "page.pdf"].sorted(), "\(left)")
    }

    @Test("a dead print's staged image in the temporary folder goes at the next image; a running one's stays")
    func stagedImages() throws {
        let home = try TemporaryFolder("home")
        defer { home.remove() }
        let temporary = try home.folder("tmp")
        let dead = "sharesheet-image-\(try Command.deadPID()).\(UUID().uuidString)"
        let alive = "sharesheet-image-\(getpid()).\(UUID().uuidString)"
        for name in [dead, alive] { try Data("\u{89}PNG half".utf8).write(to: temporary.appendingPathComponent(name)) }

        // A picture from a pipe is bytes, not a file: it is staged for gdk-pixbuf.
        let picture = try Data(contentsOf: Sample.url("sunset.png"))
        let run = try share(["--activity", "print", "-"], home: home.url, temporary: temporary, input: .data(picture))
        #expect(run.status == 0, "\(run)")
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary.path).sorted()
        #expect(left == [alive], "\(left)")
    }
}
