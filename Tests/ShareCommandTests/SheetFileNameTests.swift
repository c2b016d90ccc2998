import Foundation
import LocalTestSupport
import ShareSheet
import ShareSheetTerminal
import ShareSheetTesting
import Testing

@testable import ShareCommand

/// The terminal sheet shows a file name with a line break escaped, on one line: the sheet's
/// header and rows stay where they belong.
@MainActor
@Suite("the terminal sheet, a file name with a line break")
final class SheetFileNameTests {
    let backends = InMemoryBackends()
    let registry = ActivityRegistry()
    let output = TextBuffer()
    let errors = TextBuffer()
    let folder: URL

    init() throws {
        backends.install(into: registry)
        folder = try TemporaryFolder.make("share-cli-tests")
        try Data("numbers\n".utf8).write(to: folder.appendingPathComponent("q3\nfinal.txt"))
    }

    deinit { TemporaryFolder(existing: folder).remove() }

    @Test func theSheetShowsTheNameEscaped() async {
        let context = CommandContext(
            registry: registry, environment: ["COLUMNS": "80", "NO_COLOR": "1"], currentDirectory: folder.path,
            readStandardInput: { Data() }, lines: ScriptedLines(["q"], echo: output), standardOutput: output,
            standardError: errors, standardInputIsTerminal: true, standardOutputIsTerminal: true,
            standardErrorIsTerminal: false, catchesInterrupts: false)
        let status = await ShareCommand.run(["q3\nfinal.txt"], context: context)
        #expect(status == 130)
        #expect(output.text.contains("q3\\nfinal.txt"), "\(output.text)")
        #expect(!output.text.contains("q3\nfinal"), "\(output.text)")
    }
}
