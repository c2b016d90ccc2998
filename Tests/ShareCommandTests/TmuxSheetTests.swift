import Foundation
import LocalTestSupport
import Testing

/// The interactive sheet in a real terminal: `share` runs inside tmux, keys are sent the way a
/// person types them, and the screen is read back.
@Suite("the sheet in tmux", .serialized)
final class TmuxSheetTests {
    let folder: URL
    let socket = "share-tests-\(UUID().uuidString.prefix(8))"

    deinit {
        // The server belongs to this test alone (its own socket); kill-server stops only it.
        _ = try? Self.tmux(["-L", socket, "kill-server"])
        // A killed server can leave its socket behind.
        unlink("/tmp/tmux-\(getuid())/\(socket)")
        try? FileManager.default.removeItem(at: folder)
    }

    init() throws {
        folder = try TemporaryFolder.make("share-cli-tests")
        try Data("quarterly numbers\n".utf8).write(to: folder.appendingPathComponent("notes.txt"))
    }

    /// Runs tmux (the runner the other terminal tests use).
    @discardableResult
    static func tmux(_ arguments: [String]) throws -> String { try TmuxTerminal.run(arguments) }

    private func screen() throws -> String { try Self.tmux(["-L", socket, "capture-pane", "-p", "-t", "sheet", "-S", "-60"]) }

    private func type(_ text: String) throws {
        try Self.tmux(["-L", socket, "send-keys", "-t", "sheet", "-l", text])
        try Self.tmux(["-L", socket, "send-keys", "-t", "sheet", "Enter"])
    }

    /// Waits until the screen shows `text`; records the screen when it never does.
    private func waitFor(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if try screen().contains(text) { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the screen never showed \(text.debugDescription):\n\(try screen())", sourceLocation: sourceLocation)
        return false
    }

    /// Runs `share ARGUMENTS` (shell words) in the tmux session, in the test's folder and home,
    /// then prints EXIT=status.
    private func startShare(_ arguments: String, extra: [String: String] = [:]) throws {
        let binary = try #require(Share.url)
        var environment = ShareBinary.environment(in: folder).merging(extra) { _, given in given }
        environment["TERM"] = "xterm"
        let assignments = environment.sorted { $0.key < $1.key }.map { ShareBinary.shellQuoted("\($0.key)=\($0.value)") }
        let command =
            "cd \(ShareBinary.shellQuoted(folder.path)) && env -i \(assignments.joined(separator: " ")) "
            + "\(ShareBinary.shellQuoted(binary.path)) \(arguments); echo \"EXIT=$?\"; sleep 60"
        try Self.tmux(["-L", socket, "new-session", "-d", "-s", "sheet", "-x", "120", "-y", "50", "sh", "-c", command])
    }

    @Test func aDisplayThatCannotBeReachedFallsBackToTheTerminalSheet() async throws {
        try startShare("notes.txt", extra: ["DISPLAY": ":9999"])
        guard try await waitFor("cannot open a window on display ':9999'; showing the sheet in this terminal") else { return }
        guard try await waitFor("Mail") else { return }
        try type("q")
        guard try await waitFor("EXIT=") else { return }
        let shown = try screen()
        #expect(shown.contains("EXIT=130"), "\(shown)")
    }

    @Test func presetsShowFilledAndAreNotAskedAgain() async throws {
        try startShare("--to ana@example.com --subject 'Q3 numbers' --set subjct=x notes.txt")

        guard try await waitFor("Mail") else { return }
        try type("mail")
        guard try await waitFor("To: ana@example.com") else { return }
        // Drawn right after To, but perhaps not yet when To was seen.
        guard try await waitFor("Subject: Q3 numbers") else { return }
        // Asked next: whether to show Cc and Bcc, then the body, never To or Subject again.
        guard try await waitFor("More fields (Cc, Bcc)? [y/N]") else { return }
        try type("")
        guard try await waitFor("Body") else { return }
        try type(".")
        guard try await waitFor("EXIT=") else { return }
        let shown = try screen()
        #expect(!shown.contains("To is required"), "\(shown)")
        #expect(!shown.contains("To (e-mail addresses"), "To was asked again:\n\(shown)")
        #expect(!shown.contains("Cc (e-mail addresses"), "Cc was asked without More:\n\(shown)")
        // No server is configured: the message waits in the outbox, and the sheet says so.
        #expect(shown.contains("EXIT=0"), "\(shown)")
        // A --set key Mail does not know is named, with the closest one, in the sheet too.
        #expect(shown.contains("share: --set subjct: Mail has no such setting (did you mean subject?)"), "\(shown)")
        let outbox = folder.appendingPathComponent("home/data/sharesheet/Outbox/new")
        let queued = try FileManager.default.contentsOfDirectory(atPath: outbox.path)
        #expect(queued.count == 1)
        let message = try String(contentsOf: outbox.appendingPathComponent(queued[0]), encoding: .utf8)
        #expect(message.contains("To: ana@example.com"))
        #expect(message.contains("Subject: Q3 numbers"))
    }
}
