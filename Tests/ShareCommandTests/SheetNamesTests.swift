import Foundation
import LocalTestSupport
import ShareSheet
import ShareSheetTerminal
import ShareSheetTesting
import Testing

@testable import ShareCommand

/// The terminal sheet shows a file name with a line break escaped, on one line: the sheet's
/// header and rows stay where they belong; and an activity picked there says which items it
/// skipped.
@MainActor
@Suite("the terminal sheet, file names and skipped items")
final class SheetNamesTests {
    let backends = InMemoryBackends()
    let registry = ActivityRegistry()
    let output = TextBuffer()
    let errors = TextBuffer()
    let fixture: CommandFolder
    var folder: URL { fixture.url }

    init() throws {
        backends.install(into: registry)
        fixture = try CommandFolder(["q3\nfinal.txt": Data("numbers\n".utf8)])
    }

    /// Runs `share ARGUMENTS` on a scripted terminal that types `lines`.
    private func run(_ arguments: [String], typing lines: [String]) async -> Int32 {
        let context = CommandContext(
            registry: registry, environment: ["COLUMNS": "80", "NO_COLOR": "1"], currentDirectory: folder.path,
            readStandardInput: { Data() }, lines: ScriptedLines(lines, echo: output), standardOutput: output,
            standardError: errors, standardInputIsTerminal: true, standardOutputIsTerminal: true,
            standardErrorIsTerminal: false, catchesInterrupts: false)
        return await ShareCommand.run(arguments, context: context)
    }

    @Test func theSheetShowsTheNameEscaped() async {
        let status = await run(["q3\nfinal.txt"], typing: ["q"])
        #expect(status == 130)
        #expect(output.text.contains("q3\\nfinal.txt"), "\(output.text)")
        #expect(!output.text.contains("q3\nfinal"), "\(output.text)")
    }

    @Test func anActivityPickedInTheSheetSaysWhatItSkipped() async throws {
        try FileManager.default.copyItem(at: Sample.url("sunset.png"), to: folder.appendingPathComponent("sunset.png"))
        let status = await run(["sunset.png", "q3\nfinal.txt"], typing: ["photos"])
        #expect(status == 0, "\(errors.text)")
        #expect(backends.received[.saveToCameraRoll]?.first?.count == 1)
        #expect(
            errors.text
                == "share: Save to Photos: skipped q3\\nfinal.txt (text file (public.plain-text)): it takes images, image or video files only\n")
    }
}
