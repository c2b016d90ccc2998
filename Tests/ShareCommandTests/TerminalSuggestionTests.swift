import Foundation
import ShareSheet
import ShareSheetTerminal
import ShareSheetTesting
import Sharing
import Testing

/// A source that always suggests the same people.
@MainActor
final class FixedSuggestions: SuggestionSource {
    let suggestions: [ActivitySuggestion]
    init(_ suggestions: [ActivitySuggestion]) { self.suggestions = suggestions }
    func suggestions(for kinds: [ItemKind], offered: [Activity]) -> [ActivitySuggestion] { suggestions }
}

/// The terminal sheet's first lines are the suggestions, numbered before the rows; a number or
/// a name picks one with its presets (SPEC §12), in the numbered sheet and the arrow-key picker.
@MainActor
@Suite("The terminal sheet's suggestions")
struct TerminalSuggestionTests {
    let backends = InMemoryBackends()
    let registry = ActivityRegistry()
    let screen = TextBuffer()

    static let ana = ActivitySuggestion(
        id: "mail:ana@example.com", activityType: .mail, title: "Ana Lima", subtitle: "Mail · ana@example.com",
        iconName: "avatar-default", presets: ["to": "ana@example.com"])
    static let bo = ActivitySuggestion(
        id: "message:+15551234567", activityType: .message, title: "+15551234567", subtitle: "Message",
        iconName: "avatar-default", presets: ["to": "+15551234567"])

    init() {
        backends.install(into: registry)
    }

    private func controller() -> ActivityViewController {
        let controller = ActivityViewController(activityItems: ["Numbers for Q3"], applicationActivities: [], registry: registry)
        controller.suggestionSource = FixedSuggestions([Self.ana, Self.bo])
        return controller
    }

    private func run(_ controller: ActivityViewController, typing lines: [String]) async -> (ShareOutcome, TerminalPresenter) {
        let presenter = TerminalPresenter(input: ScriptedLines(lines, echo: screen), output: screen, style: .plain)
        controller.present(with: presenter)
        return (await controller.waitForCompletion(), presenter)
    }

    @Test("the suggestions are the first numbered lines; the rows are numbered on after them")
    func numberedFirst() throws {
        let controller = controller()
        let text = SheetScreen.render(controller.sheet, items: controller.activityItems, style: .plain)
        let lines = text.split(separator: "\n").map(String.init)
        let heading = try #require(lines.firstIndex(of: "Suggested:"), "\(text)")
        #expect(lines[heading + 1] == "  1  Mail to Ana Lima  ana@example.com", "\(text)")
        #expect(lines[heading + 2] == "  2  Message to +15551234567", "\(text)")
        #expect(lines[heading + 3].hasPrefix("Share:    3 "), "\(text)")
        #expect(SheetScreen.choices(controller.sheet).count == 2 + SheetScreen.pickable(controller.sheet).count)
    }

    // (Mail's form with To filled from the suggestion: SuggestionsCommandTests, in tmux.)
    @Test("typing 1 picks the first suggestion, with its presets; 2 the second")
    func numberPicksTheSuggestion() async throws {
        let first = controller()
        let (outcome, _) = await run(first, typing: ["1"])
        #expect(first.pickedSuggestion?.id == "mail:ana@example.com")
        #expect(first.presetValues["to"]?.text == "ana@example.com")
        #expect(outcome.activityType == .mail && outcome.completed)
        let second = controller()
        let (other, _) = await run(second, typing: ["2"])
        #expect(second.pickedSuggestion?.id == Self.bo.id)
        #expect(other.activityType == .message)
        #expect(backends.received[.mail]?.count == 1 && backends.received[.message]?.count == 1)
    }

    @Test("a name picks an activity before a suggestion; a suggestion's own name picks it")
    func namesPick() {
        let choices = SheetScreen.choices(controller().sheet)
        #expect(SheetScreen.match("mail", in: choices)?.activity?.activityType == .mail)
        #expect(SheetScreen.match("2", in: choices).map { if case .suggestion(let found) = $0 { found.id } else { "" } } == Self.bo.id)
        #expect(SheetScreen.match("ana", in: choices).map { if case .suggestion(let found) = $0 { found.id } else { "" } } == Self.ana.id)
        #expect(SheetScreen.match("mail:ana@example.com", in: choices).map { if case .suggestion(let found) = $0 { found.id } else { "" } } == Self.ana.id)
    }

    @Test("the arrow-key picker lists the suggestions first; a name typed whole puts its activity first")
    func picker() {
        let choices = SheetScreen.choices(controller().sheet)
        let all = PickerScreen.matches("", among: choices)
        let lines = PickerScreen.lines(filter: "", choices: all, selected: 0, style: TerminalStyle(width: 60))
        #expect(lines[2] == "› 1 Mail to Ana Lima (ana@example.com)", "\(lines)")
        #expect(lines[3] == "  2 Message to +15551234567", "\(lines)")
        #expect(PickerScreen.matches("mail", among: choices).first?.choice.activity?.activityType == .mail)
        #expect(PickerScreen.matches("mail", among: choices).count == 2, "Mail, then Mail to Ana Lima")
        #expect(PickerScreen.matches("ana", among: choices).map(\.number) == [1])
    }
}
