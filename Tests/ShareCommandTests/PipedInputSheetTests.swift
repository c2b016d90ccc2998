import Foundation
import LocalTestSupport
import Testing

/// Standard input read as an item, the sheet read from the terminal (#23): `echo … | share -`
/// and `share - < photo.png` typed in a terminal show the sheet and take the pick from
/// `/dev/tty`, as fzf and git do. Without any terminal the command still ends with 64
/// (`PipedItemTests`).
@Suite("piped input, the sheet on the terminal", .serialized)
final class PipedInputSheetTests {
    let folder: URL
    let terminal = TmuxTerminal()

    init() throws {
        folder = try TemporaryFolder.make("share-piped-sheet")
        try FileManager.default.copyItem(at: Sample.url("sunset.png"), to: folder.appendingPathComponent("sunset.png"))
    }

    deinit {
        terminal.stop()
        TemporaryFolder(existing: folder).remove()
    }

    /// Runs shell `words` in the terminal, where `share` is the program under test with the
    /// test's environment.
    private func start(_ words: String) throws {
        var environment = ShareBinary.environment(in: folder)
        environment["TERM"] = "xterm"
        let binary = try #require(Share.url)
        let assignments = environment.sorted { $0.key < $1.key }.map { ShareBinary.shellQuoted("\($0.key)=\($0.value)") }
        let share = "/usr/bin/env -i \(assignments.joined(separator: " ")) \(ShareBinary.shellQuoted(binary.path)) \"$@\""
        try terminal.start(
            "cd \(ShareBinary.shellQuoted(folder.path)) && share() { \(share); } && " + words + "; echo \"EXIT=$?\"; sleep 60")
    }

    private func pasteboard() throws -> String {
        let file = folder.appendingPathComponent("home/data/sharesheet/pasteboard.json")
        return try String(contentsOf: file, encoding: .utf8)
    }

    @Test func pipedTextShowsTheSheetAndTheKeysComeFromTheTerminal() async throws {
        try start("echo 'see you at 6' | share -")
        guard try await terminal.waitFor("\"see you at 6\"  text") else { return }
        guard try await terminal.waitFor("Filter:") else { return }
        try terminal.type("copy")
        guard try await terminal.waitFor("EXIT=") else { return }
        let shown = try terminal.screen()
        #expect(shown.contains("EXIT=0"), "\(shown)")
        // The pasteboard file keeps each representation's bytes in Base64.
        #expect(try pasteboard().contains(Data("see you at 6".utf8).base64EncodedString()))
    }

    @Test func aRedirectedImageShowsTheSheetForAnImage() async throws {
        try start("share - < sunset.png")
        guard try await terminal.waitFor("image") else { return }
        guard try await terminal.waitFor("Filter:") else { return }
        // Image activities are offered for the bytes of a PNG.
        #expect(try terminal.screen().contains("Save to Photos"))
        try terminal.press("Escape")
        guard try await terminal.waitFor("EXIT=") else { return }
        let shown = try terminal.screen()
        #expect(shown.contains("EXIT=130"), "\(shown)")
    }
}
