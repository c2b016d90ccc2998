// What the help and the man page say about --activity and prompting must match what the command
// does: on a terminal it asks for what is missing (Mail's To, a PIN); without one it never asks.
import Foundation
import LocalTestSupport
import Testing

@Suite("share --help and the man page on --activity's questions")
final class ActivityPromptHelpTests {
    let folder: URL

    deinit { try? FileManager.default.removeItem(at: folder) }

    init() throws {
        folder = try TemporaryFolder.make("share-activity-help")
    }

    @Test("--activity's row no longer says it never prompts; it says a terminal is asked what is missing")
    func helpSaysWhatIsAsked() async throws {
        let run = try await ShareBinary.run(["--help"], in: folder)
        #expect(run.status == 0)
        // The row, with its wrapped continuation lines joined.
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix("  --activity NAME") })
        let row = ([lines[start]] + lines[(start + 1)...].prefix { $0.hasPrefix("    ") }).map {
            $0.trimmingCharacters(in: .whitespaces)
        }.joined(separator: " ")
        #expect(!row.contains("never prompts"), "\(row)")
        #expect(row.contains("on a terminal, asks only for what is missing"), "\(row)")
        let text = run.standardOutput.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(text.contains("With --activity, a terminal on standard input is asked only what the command line left out"), "\(text)")
        #expect(text.contains("without one the command never prompts"), "\(text)")
        #expect(run.standardOutput.split(separator: "\n").allSatisfy { $0.count <= 80 })
    }

    @Test("the man page says the same")
    func manPageSaysWhatIsAsked() async throws {
        let run = try await ShareBinary.run(["man-page"], in: folder)
        #expect(run.status == 0)
        #expect(!run.standardOutput.contains("never prompts\n"), "the --activity item still says it never prompts")
        #expect(run.standardOutput.contains("on a terminal, asks only for what is missing"))
        #expect(run.standardOutput.contains("share asks only for what the command line left out (Mail's To, a receiver's PIN)"))
    }

    @Test("what the help promises holds: without a terminal, a missing To ends at once with 64, nothing asked")
    func withoutATerminalNothingIsAsked() async throws {
        try Data("hello\n".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let run = try await ShareBinary.run(["--activity", "mail", "notes.txt"], in: folder, timeout: 30)
        #expect(run.status == 64, "\(run)")
        #expect(run.standardError.contains("To is required"), "\(run.standardError)")
        #expect(!run.standardError.contains("To (e-mail addresses"), "\(run.standardError)")
    }
}
