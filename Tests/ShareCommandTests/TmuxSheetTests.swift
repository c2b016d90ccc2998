import Foundation
import LocalTestSupport
import Testing

/// The interactive sheet in a real terminal: `share` runs inside tmux, keys are sent the way a
/// person types them, and the screen is read back.
@Suite("the sheet in tmux", .serialized)
final class TmuxSheetTests {
    let fixture: CommandFolder
    var folder: URL { fixture.url }
    let terminal = TmuxTerminal()

    deinit { terminal.stop() }

    init() throws {
        fixture = try CommandFolder()
    }

    /// Runs `share ARGUMENTS` (shell words) in the terminal, in the test's folder and home.
    private func startShare(_ arguments: String, extra: [String: String] = [:]) throws {
        var environment = ShareBinary.environment(in: folder).merging(extra) { _, given in given }
        environment["TERM"] = "xterm"
        try terminal.start(TmuxTerminal.shareCommand(arguments, in: folder, environment: environment))
    }

    @Test func aDisplayThatCannotBeReachedFallsBackToTheTerminalSheet() async throws {
        try startShare("notes.txt", extra: ["DISPLAY": ":9999"])
        guard try await terminal.waitFor("cannot open a window on display ':9999'; showing the sheet in this terminal") else { return }
        guard try await terminal.waitFor("Mail") else { return }
        try terminal.type("q")
        guard try await terminal.waitFor("EXIT=") else { return }
        let shown = try terminal.screen()
        #expect(shown.contains("EXIT=130"), "\(shown)")
    }

    @Test func presetsShowFilledAndAreNotAskedAgain() async throws {
        try startShare("--to ana@example.com --subject 'Q3 numbers' notes.txt")

        guard try await terminal.waitFor("Mail") else { return }
        try terminal.type("mail")
        guard try await terminal.waitFor("To: ana@example.com") else { return }
        // Drawn right after To, but perhaps not yet when To was seen.
        guard try await terminal.waitFor("Subject: Q3 numbers") else { return }
        // Asked next: whether to show Cc and Bcc, then the body, never To or Subject again.
        guard try await terminal.waitFor("More fields (Cc, Bcc)? [y/N]") else { return }
        try terminal.type("")
        guard try await terminal.waitFor("Body") else { return }
        try terminal.type(".")
        guard try await terminal.waitFor("Send? [Y/n]") else { return }
        try terminal.type("")
        guard try await terminal.waitFor("EXIT=") else { return }
        let shown = try terminal.screen()
        #expect(!shown.contains("To is required"), "\(shown)")
        #expect(!shown.contains("To (e-mail addresses"), "To was asked again:\n\(shown)")
        #expect(!shown.contains("Cc (e-mail addresses"), "Cc was asked without More:\n\(shown)")
        // No server is configured: the message waits in the outbox (75), and the sheet says so.
        // (A mistyped --set key stops the sheet's share: SettingsMistakesTests.)
        #expect(shown.contains("EXIT=75"), "\(shown)")
        let outbox = folder.appendingPathComponent("home/data/sharesheet/Outbox/new")
        let queued = try FileManager.default.contentsOfDirectory(atPath: outbox.path)
        #expect(queued.count == 1)
        let message = try String(contentsOf: outbox.appendingPathComponent(queued[0]), encoding: .utf8)
        #expect(message.contains("To: ana@example.com"))
        #expect(message.contains("Subject: Q3 numbers"))
    }
}
