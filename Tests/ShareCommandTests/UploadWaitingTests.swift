// An upload whose bytes are all sent, with the server yet to answer: the progress line says the
// size sent and "waiting for the server…" instead of standing still at 100 %.
import Foundation
import LocalTestSupport
import ShareSheet
import ShareSheetTerminal
import Testing

@Suite("the progress line while the server has yet to answer an upload", .serialized)
final class UploadWaitingTests {
    let folder: URL
    let terminal = TmuxTerminal()

    init() throws {
        folder = try TemporaryFolder.make("share-upload-waiting")
    }

    deinit {
        terminal.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    @Test("all bytes sent: the size and 'waiting for the server…'; before that the bar as ever")
    func line() {
        #expect(
            ActivityProgressLine.line(title: "Mail", kind: .file, completed: 12_000, total: 12_000, rate: nil, waitingForAnswer: true)
                == "  Mail  12 kB sent, waiting for the server…")
        #expect(
            ActivityProgressLine.line(title: "Mail", kind: .file, completed: 6_000, total: 12_000, rate: nil)
                == "  Mail  [##########----------] 50%  6.0 kB of 12 kB")
    }

    @Test("a progress is no upload until its activity says so")
    func uploadsAreMarked() {
        let progress = Progress(totalUnitCount: 10)
        #expect(!progress.isUpload)
        progress.isUpload = true
        #expect(progress.isUpload)
    }

    @Test("a mail to a server that takes the message but never answers: the line says it waits for the server")
    func mailWaitsForTheServer() async throws {
        // 300 kB: enough bytes to count, sent to a server that keeps the answer to DATA back.
        let attachment = folder.appendingPathComponent("report.bin")
        try Data(repeating: 0x41, count: 300_000).write(to: attachment)
        let peer = try SMTPPeer(options: .init(hangInData: true), in: folder)
        defer { peer.stop() }
        var environment = ShareBinary.environment(in: folder)
        environment["TERM"] = "xterm"
        let arguments = "--activity mail --to bob@example.com --subject Report --set smtp=smtp://127.0.0.1:\(peer.port) --set starttls=off report.bin"
        try terminal.start(try TmuxTerminal.shareCommand(arguments, in: folder, environment: environment))
        guard try await terminal.waitFor("waiting for the server…") else { return }
        let shown = try terminal.screen()
        #expect(shown.contains("  Mail  "), "\(shown)")
        #expect(shown.range(of: #"[0-9.]+ kB sent, waiting for the server…"#, options: .regularExpression) != nil, "\(shown)")
        #expect(peer.dataStarted)
        // The server never answers: the tmux server's end (deinit) ends the share with it.
    }
}
