// Picking a suggestion instead of the sheet (SPEC §12), as the service's `suggestion` option
// does, in process with activities of the test's own: a suggestion that answers all the form
// asks performs at once; one that does not fills the form for the presenter; a need after the
// pick is asked and the activity runs again; an id the sheet does not suggest is refused.
import Foundation
import ShareSheet
import Testing

@testable import Sharing

/// A form with a device (required) and a note (advanced); records what each send was given.
/// Asks for a PIN when `needsPin` and none was given, as a LocalSend receiver does.
private final class DropActivity: Activity {
    static let type = ActivityType("test.drop")
    var needsPin = false
    private(set) var sent: [InterfaceValues] = []
    override var activityType: ActivityType? { Self.type }
    override var activityTitle: String? { "Drop" }
    override func canPerform(withActivityItems activityItems: [Any]) -> Bool { true }
    override var activityInterface: ActivityInterface? {
        ActivityInterface(
            title: "Drop",
            fields: [
                InterfaceField(id: "to", label: "Device", kind: .text, isRequired: true),
                InterfaceField(id: "pin", label: "PIN", kind: .text, isAdvanced: true, isSecret: true),
            ],
            onSubmit: { [weak self] values in self?.send(values) })
    }
    private func send(_ values: InterfaceValues) {
        sent.append(values)
        if needsPin, values["pin"] == nil {
            activityDidFail(ShareError(.usage, "Drop: the device asks for a PIN", field: "pin"))
        } else {
            activityDidFinish(true)
        }
    }
}

/// A form with To (required) and Subject (plain): a suggestion that knows only To leaves Subject to ask.
private final class LetterActivity: Activity {
    static let type = ActivityType("test.letter")
    private(set) var sent: [InterfaceValues] = []
    override var activityType: ActivityType? { Self.type }
    override var activityTitle: String? { "Letter" }
    override func canPerform(withActivityItems activityItems: [Any]) -> Bool { true }
    override var activityInterface: ActivityInterface? {
        ActivityInterface(
            title: "Letter",
            fields: [
                InterfaceField(id: "to", label: "To", kind: .text, isRequired: true),
                InterfaceField(id: "subject", label: "Subject", kind: .text),
            ],
            onSubmit: { [weak self] values in
                self?.sent.append(values)
                self?.activityDidFinish(true)
            })
    }
}

/// The same two suggestions for every sheet.
@MainActor
private final class FixedSuggestions: SuggestionSource, ActivityHistory {
    func suggestions(for kinds: [ItemKind], offered: [Activity]) -> [ActivitySuggestion] {
        [
            ActivitySuggestion(
                id: "drop:desk", activityType: DropActivity.type, title: "Desk", iconName: "computer", presets: ["to": "Desk"]),
            ActivitySuggestion(
                id: "letter:ana", activityType: LetterActivity.type, title: "Ana", iconName: "avatar-default",
                presets: ["to": "ana@example.com"]),
        ]
    }
    var recentTypes: [ActivityType] { [] }
    func record(_ type: ActivityType) {}
}

/// A front end with nobody to ask but `answers`, whose presenters record the form they were shown.
@MainActor
private final class NobodyFrontEnd: ShareFrontEnd {
    var answers: [String] = []
    private(set) var presenters: [ScriptedPresenter] = []

    func presenter(picking type: ActivityType?) -> any Presenter {
        let presenter = ScriptedPresenter(pick: type)
        presenters.append(presenter)
        return presenter
    }

    func answer(_ need: ShareNeed) async -> String? { answers.isEmpty ? nil : answers.removeFirst() }

    var shownInterface: ActivityInterface? { presenters.last?.shownInterface }
}

@MainActor
@Suite("Picking a suggestion instead of the sheet")
struct SuggestionPickTests {
    private let host: ShareHost = {
        let host = ShareHost(registry: ActivityRegistry(environment: HostEnvironment(variables: [:])))
        host.suggestionSourceMaker = { FixedSuggestions() }
        return host
    }()

    private func session(with activities: [Activity]) throws -> (ShareSession, ActivityViewController) {
        let make = { [host] (asked: [(key: String, value: String)]) -> ActivityViewController in
            try host.controller(
                for: [ResolvedItem(value: "hello", label: "hello")], presets: SharePresets(settings: asked),
                applicationActivities: activities)
        }
        let first = try make([])
        return (ShareSession(host: host, first: first, remake: make), first)
    }

    @Test("a suggestion that answers everything the form asks performs at once: no form is shown")
    func answeredFormPerformsAtOnce() async throws {
        let drop = DropActivity()
        let (session, controller) = try session(with: [drop, LetterActivity()])
        let suggestion = try host.suggestion("drop:desk", on: controller)
        let frontEnd = NobodyFrontEnd()
        let ending = try await session.run(
            with: SuggestionFrontEnd(picking: suggestion, in: frontEnd, showsSheetFirst: false), picking: nil)
        #expect(ending.outcome.completed)
        #expect(ending.outcome.activityType == DropActivity.type)
        #expect(drop.sent == [["to": .text("Desk")]])
        #expect(frontEnd.presenters.count == 1)
        #expect(frontEnd.shownInterface == nil, "the form was not shown")
        #expect(frontEnd.presenters.first?.shownSheet == nil, "the sheet was not shown")
        #expect(ending.controller.pickedSuggestion?.id == "drop:desk")
    }

    @Test("a suggestion that leaves something to ask fills the form the presenter shows: To given, Subject empty")
    func formShownFilled() async throws {
        let letter = LetterActivity()
        let (session, controller) = try session(with: [DropActivity(), letter])
        let suggestion = try host.suggestion("letter:ana", on: controller)
        let frontEnd = NobodyFrontEnd()
        let ending = try await session.run(
            with: SuggestionFrontEnd(picking: suggestion, in: frontEnd, showsSheetFirst: false), picking: nil)
        #expect(ending.outcome.completed)
        let shown = try #require(frontEnd.shownInterface, "the form was shown")
        #expect(shown.fields.first { $0.id == "to" }?.defaultValue == .text("ana@example.com"))
        #expect(letter.sent.first?["to"] == .text("ana@example.com"))
        #expect(frontEnd.presenters.first?.shownSheet == nil, "the sheet was not shown")
    }

    @Test("a need after the pick is asked, and the suggestion's activity runs again with its presets and the answer")
    func needAfterThePick() async throws {
        let drop = DropActivity()
        drop.needsPin = true
        let (session, controller) = try session(with: [drop])
        let suggestion = try host.suggestion("drop:desk", on: controller)
        let frontEnd = NobodyFrontEnd()
        frontEnd.answers = ["4321"]
        let ending = try await session.run(
            with: SuggestionFrontEnd(picking: suggestion, in: frontEnd, showsSheetFirst: false), picking: nil)
        #expect(ending.outcome.completed, "\(String(describing: ending.outcome.error))")
        #expect(drop.sent.map { $0["to"] } == [.text("Desk"), .text("Desk")])
        #expect(drop.sent.last?["pin"] == .text("4321"))
        #expect(frontEnd.presenters.count == 2)
        #expect(frontEnd.presenters.last?.pick == DropActivity.type, "the run again picks the activity")
    }

    @Test("an id the sheet does not suggest is refused, naming it, on the suggestion field")
    func unknownID() throws {
        let (_, controller) = try session(with: [DropActivity()])
        #expect(throws: ShareError(.usage, "'drop:attic' is not one of the suggestions for these items", field: "suggestion")) {
            try host.suggestion("drop:attic", on: controller)
        }
        // A suggestion for an activity the sheet does not offer is not one of its suggestions.
        #expect(throws: ShareError.self) { try host.suggestion("letter:ana", on: controller) }
    }
}
