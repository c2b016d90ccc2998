import Foundation
import LocalTestSupport
import Testing

/// A fallback is never silent: the command says it in words on standard error, with the one key
/// or command that changes it, and `disposition` says where the items went.
@Suite("share, fallbacks")
final class FallbackCommandTests {
    let fixture: CommandFolder
    var folder: URL { fixture.url }

    init() throws {
        fixture = try CommandFolder()
    }

    /// Runs one activity with `--json`; returns the result object and standard error.
    private func share(_ arguments: [String]) async throws -> (result: [String: Any], errors: String, status: Int32) {
        let run = try await ShareBinary.run(["--json"] + arguments, in: folder)
        let result = try #require(
            try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any], "\(run)")
        return (result, run.standardError, run.status)
    }

    /// The fallback in the result is the one said on standard error, as two lines.
    private func expectSaid(_ result: [String: Any], in errors: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let fallback = try #require(result["fallback"] as? [String: Any], sourceLocation: sourceLocation)
        let message = try #require(fallback["message"] as? String, sourceLocation: sourceLocation)
        let hint = try #require(fallback["hint"] as? String, sourceLocation: sourceLocation)
        #expect(!message.isEmpty && !hint.isEmpty, sourceLocation: sourceLocation)
        #expect(errors == "share: \(message)\nshare: to change this: \(hint)\n", sourceLocation: sourceLocation)
    }

    @Test func mailWithoutAServerIsQueued() async throws {
        let (result, errors, status) = try await share(["--activity", "mail", "--to", "ana@example.com", "notes.txt"])
        // Kept for later, not sent: a temporary failure (75), as SPEC §4 says.
        #expect(status == 75)
        #expect(result["disposition"] as? String == "queued")
        let location = try #require(result["location"] as? String)
        #expect(location.hasPrefix(folder.appendingPathComponent("home/data/sharesheet/Outbox").path))
        #expect(FileManager.default.fileExists(atPath: location))
        try expectSaid(result, in: errors)
        #expect(errors.contains("outbox"))
    }

    @Test func printWithoutAPrinterSavesAPDF() async throws {
        // Nothing listens on loopback port 1, so there is no CUPS scheduler and no printer.
        let run = try await ShareBinary.run(
            ["--json", "--activity", "print", "notes.txt"], in: folder, prefix: ["/usr/bin/env", "CUPS_SERVER=127.0.0.1:1"])
        let result = try #require(
            try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any], "\(run)")
        #expect(run.status == 0, "\(run)")
        #expect(result["disposition"] as? String == "saved")
        let location = try #require(result["location"] as? String)
        #expect(location.hasSuffix(".pdf"))
        #expect(FileManager.default.fileExists(atPath: location))
        try expectSaid(result, in: run.standardError)
    }
}
