import Foundation
import ShareSheet
import ShareSheetTerminal
import ShareSheetTesting
import Testing

/// The terminal sheet driven with typed lines, its screen compared with snapshots.
@MainActor
@Suite("TerminalPresenter")
struct TerminalPresenterTests {
    let backends = InMemoryBackends()
    let registry = ActivityRegistry()
    let screen = TextBuffer()

    init() {
        backends.install(into: registry)
    }

    static let items: [Any] = [URL(fileURLWithPath: "/srv/reports/notes.txt"), "Numbers for Q3"]

    private func controller(_ items: [Any] = Self.items, activities: [Activity] = []) -> ActivityViewController {
        ActivityViewController(activityItems: items, applicationActivities: activities, registry: registry)
    }

    private func presenter(_ lines: ScriptedLines) -> TerminalPresenter {
        TerminalPresenter(input: lines, output: screen, style: .plain)
    }

    private func run(_ controller: ActivityViewController, typing lines: [String]) async -> (ShareOutcome, TerminalPresenter) {
        let input = ScriptedLines(lines, echo: screen)
        let presenter = presenter(input)
        controller.present(with: presenter)
        return (await controller.waitForCompletion(), presenter)
    }

    @Test func picksByNumber() async {
        let (outcome, _) = await run(controller(), typing: ["4"])
        // The snapshot pins the numbering; the pick must be what the screen numbered 4.
        #expect(screen.text.contains("4 Message (message)"))
        #expect(outcome.activityType == .message)
        #expect(outcome.completed)
        assertSnapshot(screen.text, named: "sheet-pick-by-number")
    }

    @Test func picksByCommandNameTitleOrRawType() async {
        for (typed, expected) in [
            ("copy", ActivityType.copyToPasteboard), ("Mail", .mail), ("com.apple.UIKit.activity.AirDrop", .airDrop),
            ("mes", .message),
        ] {
            let (outcome, _) = await run(controller(), typing: [typed])
            #expect(outcome.activityType == expected, "typed \(typed)")
            #expect(outcome.completed)
        }
        #expect(backends.received[.copyToPasteboard]?.count == 1)
    }

    @Test func unknownPickIsAskedAgain() async {
        let (outcome, _) = await run(controller(), typing: ["fax", "99", "copy"])
        #expect(outcome.activityType == .copyToPasteboard)
        let problems = screen.text.split(separator: "\n").filter { $0.hasPrefix("  ! ") }
        #expect(problems.count == 2)
        #expect(problems.first?.contains("no activity 'fax': type a number from 1 to") == true)
    }

    @Test func emptyLineDismisses() async {
        let (outcome, _) = await run(controller(), typing: [""])
        #expect(outcome.activityType == nil)
        #expect(!outcome.completed)
        #expect(backends.received.isEmpty)
    }

    @Test func qDismissesAndEndOfInputDismisses() async {
        let (quit, _) = await run(controller(), typing: ["q"])
        #expect(quit.activityType == nil)
        let (ended, _) = await run(controller(), typing: [])
        #expect(ended.activityType == nil)
        #expect(!ended.completed)
        #expect(screen.text.hasSuffix("cancel): \n"))
    }

    @Test func sheetWrapsRowsToTheWidth() {
        let text = SheetScreen.render(controller().sheet, items: Self.items, style: TerminalStyle(width: 40))
        for line in text.split(separator: "\n") { #expect(line.count <= 40, "too wide: \(line)") }
        assertSnapshot(text, named: "sheet-40-columns")
    }

    @Test func colorOnlyWhenAllowed() {
        let plain = SheetScreen.render(controller().sheet, items: Self.items, style: .plain)
        #expect(!plain.contains("\u{1B}"))
        let colored = SheetScreen.render(
            controller().sheet, items: Self.items, style: TerminalStyle(width: 80, redrawsInPlace: true, usesColor: true))
        #expect(colored.contains("\u{1B}[1m"))
        let noColor = TerminalStyle.detect(descriptor: -1, environment: ["NO_COLOR": "1", "COLUMNS": "80"])
        #expect(!noColor.usesColor)
        #expect(noColor.width == 80)
    }

    // MARK: Interfaces

    private func composer(options: ChoiceOptions = ChoiceOptions([])) -> FakeActivity {
        let fake = FakeActivity(
            type: ActivityType("org.example.compose"), title: "Compose", category: .share)
        fake.interface = ActivityInterface(
            title: "New Message", message: "Sends the notes to your team.",
            fields: [
                InterfaceField(id: "to", label: "To", kind: .emailAddresses, isRequired: true),
                InterfaceField(id: "subject", label: "Subject", kind: .text, defaultValue: .text("Q3 notes")),
                InterfaceField(id: "device", label: "Device", kind: .choice(options), help: "Where to send it."),
                InterfaceField(id: "urgent", label: "Urgent", kind: .toggle),
                InterfaceField(id: "copies", label: "Copies", kind: .integer(1...5), defaultValue: .integer(1)),
            ],
            validate: { values in
                values["copies"] == .integer(4) ? ["copies": "four copies are unlucky"] : [:]
            },
            onSubmit: { _ in })
        return fake
    }

    @Test("To completes names from the contacts: one match is taken and said, several are numbered, no match is not an address")
    func addressFieldsCompleteNames() async {
        let fake = FakeActivity(type: ActivityType("org.example.mail"), title: "Send", category: .share)
        fake.interface = ActivityInterface(
            title: "New Message", fields: [InterfaceField(id: "to", label: "To", kind: .emailAddresses, isRequired: true)],
            onSubmit: { _ in })
        let shown = controller(activities: [fake])
        let people = KnownPeople([
            AddressCompletion(name: "Bo Berg", address: "bo@example.com", fieldText: "Bo Berg <bo@example.com>"),
            AddressCompletion(name: "Ana Lima", address: "ana@example.com", fieldText: "Ana Lima <ana@example.com>"),
            AddressCompletion(name: "Ana Souza", address: "souza@example.com", fieldText: "Ana Souza <souza@example.com>"),
        ])
        shown.suggestionSource = people
        let (outcome, _) = await run(shown, typing: ["Send", "zed", "bo, ana, cy@example.com", "3", "2"])
        #expect(outcome.completed)
        #expect(fake.submittedValues == ["to": .list(["Bo Berg <bo@example.com>", "Ana Souza <souza@example.com>", "cy@example.com"])])
        let lines = screen.text.split(separator: "\n").map(String.init)
        #expect(lines.contains("  ! not an e-mail address: zed"), "\(screen.text)")
        #expect(lines.contains("  bo → Bo Berg <bo@example.com>"), "\(screen.text)")
        #expect(lines.contains("  ana names 2 people:") && lines.contains("  2) Ana Souza  souza@example.com"), "\(screen.text)")
        #expect(lines.contains("  ! type a number from 1 to 2"), "\(screen.text)")
    }

    @Test("a text with a limit: the limit is said before, the count after, and a text over it is asked again")
    func countsATextWithALimit() async {
        let fake = FakeActivity(type: ActivityType("org.example.post"), title: "Post", category: .share)
        var text = InterfaceField(id: "text", label: "Text", kind: .text, defaultValue: .text("Numbers"))
        text.textLimit = TextLimit(maximum: 10) { $0.count }
        fake.interface = ActivityInterface(title: "New Post", fields: [text], onSubmit: { _ in })
        let (outcome, _) = await run(controller(activities: [fake]), typing: ["Post", "Numbers for Q3", "Q3 up 4 %"])
        #expect(outcome.completed)
        #expect(fake.submittedValues == ["text": .text("Q3 up 4 %")])
        let lines = screen.text.split(separator: "\n").map(String.init)
        #expect(lines.contains("  At most 10 characters; the text in brackets uses 7."), "\(screen.text)")
        #expect(lines.contains("  ! 14 characters, 4 over the 10 this takes: shorten it"), "\(screen.text)")
        #expect(lines.contains("  9 of 10 characters"), "\(screen.text)")
    }

    @Test func asksFieldsLineByLineAndRetriesProblems() async {
        let options = ChoiceOptions([
            .init(id: "phone", title: "Ana's phone", detail: "Pixel 8"), .init(id: "laptop", title: "Ana's laptop"),
        ])
        let fake = composer(options: options)
        let (outcome, _) = await run(
            controller(activities: [fake]),
            typing: ["Compose", "", "not-an-address", "ana@example.com", "", "Ana's laptop", "maybe", "y", "4", "2"])
        #expect(outcome.activityType == ActivityType("org.example.compose"))
        #expect(outcome.completed)
        #expect(
            fake.submittedValues == [
                "to": .list(["ana@example.com"]), "subject": .text("Q3 notes"), "device": .choice("laptop"),
                "urgent": .bool(true), "copies": .integer(2),
            ])
        assertSnapshot(screen.text, named: "interface-fields-and-validation")
    }

    @Test func optionsStreamInWhileThePromptWaits() async {
        let options = ChoiceOptions(streaming: [.init(id: "phone", title: "Ana's phone")])
        let fake = composer(options: options)
        let input = ScriptedLines(["1", "ana@example.com", "", "2", "", ""], echo: screen)
        input.before(line: 3) {
            options.append(.init(id: "tv", title: "Living-room TV", detail: "LocalSend"))
        }
        let presenter = presenter(input)
        let controller = controller(activities: [fake])
        controller.present(with: presenter)
        let outcome = await controller.waitForCompletion()
        #expect(outcome.completed)
        #expect(fake.submittedValues?["device"] == .choice("tv"))
        assertSnapshot(screen.text, named: "interface-streaming-options")
    }

    @Test func endOfInputCancelsTheInterface() async {
        let fake = composer()
        let (outcome, presenter) = await run(controller(activities: [fake]), typing: ["1", "ana@example.com"])
        #expect(presenter.interfaceWasCancelled)
        #expect(outcome.activityType == ActivityType("org.example.compose"))
        #expect(!outcome.completed)
        #expect(outcome.error == nil)
        #expect(fake.submittedValues == nil)
    }

    // MARK: Progress

    @Test func progressLines() {
        let style = TerminalStyle(width: 60)
        #expect(
            ProgressDisplay.line(name: "recipe.pdf", fraction: 0.42, frame: nil, style: style)
                == "  recipe.pdf                     [########------------]  42%")
        #expect(ProgressDisplay.line(name: "recipe.pdf", fraction: nil, frame: nil, style: style) == "  recipe.pdf  working…")
        #expect(ProgressDisplay.line(name: "recipe.pdf", fraction: nil, frame: 1, style: style) == "  recipe.pdf  / working…")
        let long = ProgressDisplay.line(name: String(repeating: "x", count: 100), fraction: 1, frame: nil, style: style)
        #expect(long.count == 60)
        #expect(long.hasSuffix("[####################] 100%"))
    }

    @Test func providersShowOneLineEachWhereNothingIsRedrawn() async {
        let log = CallLog()
        let provider = SleepingProvider(
            name: "recipe", placeholder: "recipe", result: "the recipe", duration: .milliseconds(50), log: log)
        let progress = TextBuffer()
        #expect(ProgressDisplay.line(name: "recipe.pdf", fraction: 0.42, frame: nil, style: .plain).count == 80)
        let presenter = TerminalPresenter(
            input: ScriptedLines(["copy"], echo: screen), output: screen, progressOutput: progress)
        let controller = controller([provider])
        controller.present(with: presenter)
        let outcome = await controller.waitForCompletion()
        #expect(outcome.completed)
        // One line, never redrawn: "working…" or, when the provider has set its total by the time
        // the line is written (a busy machine), its bar.
        let lines = progress.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[1].isEmpty, "progress: \(progress.text)")
        #expect(progress.text == "  text  working…\n" || progress.text.hasPrefix("  text  ") && progress.text.contains("%"))
    }
}

/// People an address field completes from, matched as the contacts are: a word of the name or
/// the address's start.
@MainActor
private final class KnownPeople: SuggestionSource {
    let people: [AddressCompletion]
    init(_ people: [AddressCompletion]) { self.people = people }
    func suggestions(for kinds: [ItemKind], offered: [Activity]) -> [ActivitySuggestion] { [] }
    func people(matching typed: String, kind: AddressKind, limit: Int) -> [AddressCompletion] {
        let typed = typed.lowercased()
        return people.filter { person in
            person.address.lowercased().hasPrefix(typed) || person.name.lowercased().split(separator: " ").contains { $0.hasPrefix(typed) }
        }
    }
}
