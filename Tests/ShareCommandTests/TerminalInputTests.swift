import Foundation
import LocalTestSupport
import ShareSheet
import ShareSheetTesting
import Testing

@testable import ShareSheetTerminal

/// The terminal sheet's input pieces (#14): keys from raw bytes, the picker's filter, the
/// "More fields" step, the editor and `--activity`'s questions, driven without a terminal.
@MainActor
@Suite("the terminal sheet's input")
struct TerminalInputTests {
    let backends = InMemoryBackends()
    let registry = ActivityRegistry()
    let screen = TextBuffer()

    init() {
        backends.install(into: registry)
    }

    // MARK: Keys

    private func keys(_ bytes: [UInt8], complete: Bool = true) -> [Key] {
        var pending = bytes
        var keys: [Key] = []
        while let key = KeyDecoder.decode(&pending, complete: complete) { keys.append(key) }
        return keys
    }

    @Test func bytesBecomeKeys() {
        #expect(keys([0x1B, 0x5B, 0x42, 0x0D]) == [.down, .enter], "ESC [ B, Enter")
        #expect(keys([0x1B, 0x4F, 0x41]) == [.up], "ESC O A (application cursor keys)")
        #expect(keys([0x1B, 0x5B, 0x33, 0x7E]) == [.other], "Delete is ignored, whole")
        #expect(keys([0x1B]) == [.escape], "a lone ESC once nothing follows")
        #expect(keys([0x1B], complete: false).isEmpty, "an ESC may still become an arrow")
        #expect(keys([0x03, 0x04, 0x7F, 0x10, 0x0E]) == [.interrupt, .endOfInput, .backspace, .up, .down])
        #expect(keys(Array("mé漢".utf8)) == [.character("m"), .character("é"), .character("漢")])
        // A character split between two reads waits for its last byte.
        var split = Array("漢".utf8.prefix(2))
        #expect(KeyDecoder.decode(&split, complete: false) == nil)
        #expect(split.count == 2)
    }

    // MARK: The picker's filter

    private func sheet(_ items: [Any] = ["Numbers for Q3"]) -> ActivitySheet {
        ActivityViewController(activityItems: items, applicationActivities: [], registry: registry).sheet
    }

    @Test func theFilterMatchesStartsFirstThenContainsAndNumbers() {
        let picks = SheetScreen.pickable(sheet())
        let all = PickerScreen.matches("", in: picks)
        #expect(all.count == picks.count)
        #expect(all.map(\.number) == Array(1...picks.count))
        let mail = PickerScreen.matches("mai", in: picks)
        #expect(mail.first?.activity.activityType == .mail)
        let byNumber = PickerScreen.matches("2", in: picks)
        #expect(byNumber.first?.number == 2)
        #expect(PickerScreen.matches("zzz", in: picks).isEmpty)
        let lines = PickerScreen.lines(filter: "zzz", matches: [], selected: 0, style: .plain)
        #expect(lines.last == "  (nothing matches 'zzz')")
        let drawn = PickerScreen.lines(filter: "", matches: all, selected: 1, style: TerminalStyle(width: 20))
        #expect(drawn[3].hasPrefix("› 2 "), "\(drawn)")
        // The hint too: wrapped by the terminal, it left a copy behind at each key (#23).
        for line in drawn { #expect(TextWidth.columns(of: line) <= 19, "\(line)") }
    }

    @Test func aShortScreenShowsAWindowAroundTheSelection() throws {
        let picks = SheetScreen.pickable(sheet())
        let all = PickerScreen.matches("", in: picks)
        try #require(all.count > 4, "the test needs more activities than fit")
        let style = TerminalStyle(width: 60, rows: 8)
        let top = PickerScreen.lines(filter: "", matches: all, selected: 0, style: style)
        #expect(top.count <= 8, "\(top)")
        #expect(top[2].hasPrefix("› 1 "), "\(top)")
        #expect(top.last == "  ↓ \(all.count - 3) more", "\(top)")
        let bottom = PickerScreen.lines(filter: "", matches: all, selected: all.count - 1, style: style)
        #expect(bottom.count <= 8, "\(bottom)")
        #expect(bottom[2] == "  ↑ \(all.count - 3) more", "\(bottom)")
        #expect(bottom.last?.hasPrefix("› \(all.count) ") == true, "\(bottom)")
    }

    // MARK: "More fields"

    private func composer() -> FakeActivity {
        let fake = FakeActivity(type: ActivityType("org.example.compose"), title: "Compose", category: .share)
        fake.interface = ActivityInterface(
            title: "New Message",
            fields: [
                InterfaceField(id: "to", label: "To", kind: .emailAddresses, isRequired: true),
                InterfaceField(id: "cc", label: "Cc", kind: .emailAddresses, isAdvanced: true),
                InterfaceField(id: "bcc", label: "Bcc", kind: .emailAddresses, isAdvanced: true),
                InterfaceField(id: "subject", label: "Subject", kind: .text, defaultValue: .text("Q3")),
            ],
            onSubmit: { _ in })
        return fake
    }

    private func run(
        _ fake: FakeActivity, typing lines: [String], pick: ActivityType? = nil, editor: ExternalEditor? = nil
    ) async -> ShareOutcome {
        let presenter = TerminalPresenter(
            input: ScriptedLines(lines, echo: screen), output: screen, style: .plain, editor: editor, pick: pick)
        let controller = ActivityViewController(activityItems: ["Numbers for Q3"], applicationActivities: [fake], registry: registry)
        controller.present(with: presenter)
        return await controller.waitForCompletion()
    }

    @Test func advancedFieldsWaitBehindMore() async {
        let fake = composer()
        let outcome = await run(fake, typing: ["Compose", "ana@example.com", "", ""])
        #expect(outcome.completed)
        #expect(screen.text.contains("More fields (Cc, Bcc)? [y/N]: "))
        #expect(!screen.text.contains("Cc (e-mail addresses"), "\(screen.text)")
        #expect(fake.submittedValues?["to"] == .list(["ana@example.com"]))
        #expect(fake.submittedValues?["cc"] == nil)
    }

    @Test func moreAsksThemInPlace() async {
        let fake = composer()
        let outcome = await run(fake, typing: ["Compose", "ana@example.com", "y", "cy@example.com", "", ""])
        #expect(outcome.completed)
        #expect(screen.text.contains("Cc (e-mail addresses, comma-separated): "))
        #expect(fake.submittedValues?["cc"] == .list(["cy@example.com"]))
    }

    @Test func aPickFromTheCommandLineAsksOnlyWhatIsMissing() async {
        let fake = composer()
        let outcome = await run(fake, typing: ["ana@example.com"], pick: ActivityType("org.example.compose"))
        #expect(outcome.completed)
        #expect(!screen.text.contains("Sharing"), "no sheet is drawn:\n\(screen.text)")
        #expect(screen.text.contains("To (e-mail addresses"))
        #expect(!screen.text.contains("More fields") && !screen.text.contains("Subject"), "\(screen.text)")
        #expect(fake.submittedValues?["subject"] == .text("Q3"))
    }

    // MARK: The editor

    private func bodyComposer() -> FakeActivity {
        let fake = FakeActivity(type: ActivityType("org.example.note"), title: "Note", category: .share)
        fake.interface = ActivityInterface(
            title: "Note", fields: [InterfaceField(id: "body", label: "Body", kind: .multilineText, isRequired: true)],
            onSubmit: { _ in })
        return fake
    }

    @Test func anEditorThatFailsFallsBackToTyping() async throws {
        let folder = try TemporaryFolder.make("share-cli-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let editor = try #require(ExternalEditor(environment: ["EDITOR": "false", "TMPDIR": folder.path]))
        let fake = bodyComposer()
        let outcome = await run(fake, typing: ["Note", "typed instead", "."], editor: editor)
        #expect(outcome.completed)
        #expect(screen.text.contains("the editor 'false' ended with status 1; type it here instead"), "\(screen.text)")
        #expect(fake.submittedValues?["body"] == .text("typed instead"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "the temporary file is removed")
    }

    @Test func visualComesBeforeEditor() {
        #expect(ExternalEditor(environment: ["VISUAL": "vi", "EDITOR": "nano"])?.command == "vi")
        #expect(ExternalEditor(environment: ["VISUAL": " ", "EDITOR": "nano"])?.command == "nano")
        #expect(ExternalEditor(environment: [:]) == nil)
    }
}
