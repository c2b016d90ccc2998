// The share session (SPEC §11) in process, with activities of the test's own: a need is asked
// through the front end and the activity runs again with the answer, at most three times; work
// taken back with Undo brings the form back filled; a cancel keeps what the activity finished.
import Foundation
import ShareSheet
import Testing

@testable import Sharing

/// Sends only with PIN 4321, else fails naming the field, as a LocalSend receiver answers 401.
private final class PinActivity: Activity {
    static let type = ActivityType("test.pin")
    private(set) var pinsTried: [String?] = []
    override var activityType: ActivityType? { Self.type }
    override var activityTitle: String? { "Pin Drop" }
    override func canPerform(withActivityItems activityItems: [Any]) -> Bool { true }
    override var activityInterface: ActivityInterface? {
        ActivityInterface(
            title: "Pin Drop",
            fields: [
                InterfaceField(id: "to", label: "Device", kind: .text, isRequired: true, defaultValue: .text("Desk")),
                InterfaceField(id: "pin", label: "PIN", kind: .text, isAdvanced: true, isSecret: true),
            ],
            onSubmit: { [weak self] values in self?.send(values) })
    }
    private func send(_ values: InterfaceValues) {
        let pin = values["pin"]?.text
        pinsTried.append(pin)
        if pin == "4321" {
            activityDidFinish(true)
        } else {
            let said = pin == nil ? "Pin Drop: Desk asks for a PIN" : "Pin Drop: Desk did not accept the PIN"
            activityDidFail(ShareError(.usage, said, field: "pin"))
        }
    }
}

/// Works until cancelled; when told to keep its work first, says it kept half of it.
private final class HalfwayActivity: Activity, InterruptibleActivity {
    static let type = ActivityType("test.halfway")
    private var keeps = false
    private(set) var cancelled = false
    override var activityType: ActivityType? { Self.type }
    override var activityTitle: String? { "Halfway" }
    override func canPerform(withActivityItems activityItems: [Any]) -> Bool { true }
    override func perform() {}
    override func cancel() {
        cancelled = true
        activityDidFinish(false)
    }
    func keepWorkWhenCancelled() { keeps = true }
    func keptWork() async -> KeptWork? {
        keeps && cancelled ? KeptWork(what: "a.txt (1 of 2)", location: "Desk") : nil
    }
}

/// Holds its send back; the first one is taken back at once (the person pressed Undo), the
/// next one goes. Records the values each send was given.
private final class UndoneOnceActivity: Activity, UndoableActivity {
    static let type = ActivityType("test.undone-once")
    private(set) var sent: [InterfaceValues] = []
    private(set) var wasUndone = false
    override var activityType: ActivityType? { Self.type }
    override var activityTitle: String? { "Undone Once" }
    override func canPerform(withActivityItems activityItems: [Any]) -> Bool { true }
    override var activityInterface: ActivityInterface? {
        ActivityInterface(
            title: "Undone Once",
            fields: [
                InterfaceField(id: "to", label: "To", kind: .text, isRequired: true),
                InterfaceField(id: "note", label: "Note", kind: .text),
            ],
            onSubmit: { [weak self] values in self?.send(values) })
    }
    var waitingWork: WaitingWork? { nil }
    func undo() -> Bool { false }
    func proceedNow() {}
    private func send(_ values: InterfaceValues) {
        sent.append(values)
        wasUndone = sent.count == 1
        if wasUndone { activityDidFail(ShareError(.cancelled, "Undone Once: taken back")) } else { activityDidFinish(true) }
    }
}

/// Fails for now on its first send (a server that does not answer), goes on the next; records
/// the values each send was given.
private final class BusyOnceActivity: Activity {
    static let type = ActivityType("test.busy-once")
    private(set) var sent: [InterfaceValues] = []
    override var activityType: ActivityType? { Self.type }
    override var activityTitle: String? { "Busy Once" }
    override func canPerform(withActivityItems activityItems: [Any]) -> Bool { true }
    override var activityInterface: ActivityInterface? {
        ActivityInterface(
            title: "Busy Once", fields: [InterfaceField(id: "to", label: "To", kind: .text, isRequired: true)],
            onSubmit: { [weak self] values in self?.send(values) })
    }
    private func send(_ values: InterfaceValues) {
        sent.append(values)
        if sent.count == 1 {
            activityDidFail(ShareError(.temporaryFailure, "Busy Once: the server did not answer"))
        } else {
            activityDidFinish(true)
        }
    }
}

/// A front end that picks ahead through a scripted presenter and answers needs from a list.
@MainActor
private final class ScriptedFrontEnd: ShareFrontEnd {
    var answers: [String?]
    private(set) var asked: [ShareNeed] = []
    private(set) var refilled: [ActivityType] = []
    /// Values the person types into a form shown again after Undo.
    var typedAfterUndo: InterfaceValues = [:]
    private var last: ScriptedPresenter?
    var onPresent: ((ScriptedPresenter) -> Void)?

    /// What the person presses on each failure that may go through again: true for Retry.
    var retries: [Bool] = []
    private(set) var offeredRetry = 0

    init(answers: [String?]) { self.answers = answers }

    func runsAgain(after outcome: ShareOutcome) async -> Bool {
        offeredRetry += 1
        return retries.isEmpty ? false : retries.removeFirst()
    }

    func presenter(picking type: ActivityType?) -> any Presenter {
        let presenter = ScriptedPresenter(pick: type)
        last = presenter
        onPresent?(presenter)
        return presenter
    }

    func presenter(refilling type: ActivityType) -> any Presenter {
        refilled.append(type)
        let presenter = ScriptedPresenter(pick: type, values: typedAfterUndo)
        last = presenter
        return presenter
    }

    func answer(_ need: ShareNeed) async -> String? {
        asked.append(need)
        return answers.isEmpty ? nil : answers.removeFirst()
    }

    var shownInterface: ActivityInterface? { last?.shownInterface }
}

@MainActor
@Suite("The share session")
struct ShareSessionTests {
    private let host = ShareHost(registry: ActivityRegistry(environment: HostEnvironment(variables: [:])))

    private func session(with activity: Activity) -> ShareSession {
        let make = { [host] (asked: [(key: String, value: String)]) -> ActivityViewController in
            try host.controller(
                for: [ResolvedItem(value: "hello", label: "hello")], presets: SharePresets(settings: asked),
                applicationActivities: [activity])
        }
        return ShareSession(host: host, first: try! make([]), remake: make)
    }

    @Test("a need is asked, a wrong answer asked again with the count, and the right one completes the share")
    func askedAgainUntilRight() async throws {
        let activity = PinActivity()
        let frontEnd = ScriptedFrontEnd(answers: ["0000", "4321"])
        let session = session(with: activity)
        let ending = try await session.run(with: frontEnd, picking: PinActivity.type)
        #expect(ending.outcome.completed)
        #expect(activity.pinsTried == [nil, "0000", "4321"])
        #expect(frontEnd.asked.map(\.field) == ["pin", "pin"])
        #expect(frontEnd.asked.map(\.earlierAnswers) == [0, 1])
        #expect(frontEnd.asked.first?.label == "PIN" && frontEnd.asked.first?.isSecret == true)
        #expect(frontEnd.asked.first?.reason == "Pin Drop: Desk asks for a PIN")
        #expect(frontEnd.asked.last?.reason == "Pin Drop: Desk did not accept the PIN")
        #expect(session.result(of: ending).completed)
    }

    @Test("after three answers that do not do, the failure is the result, naming the field")
    func atMostThreeAnswers() async throws {
        let activity = PinActivity()
        let frontEnd = ScriptedFrontEnd(answers: ["1", "2", "3", "4"])
        let ending = try await session(with: activity).run(with: frontEnd, picking: PinActivity.type)
        #expect(!ending.outcome.completed)
        #expect(frontEnd.asked.count == ShareSession.maximumAnswers)
        #expect(activity.pinsTried.count == 1 + ShareSession.maximumAnswers)
        #expect((ending.outcome.error as? ShareError)?.field == "pin")
    }

    @Test("nobody to ask (a script, a non-interactive call): the share ends at once with the need's failure")
    func nobodyToAsk() async throws {
        let activity = PinActivity()
        let frontEnd = ScriptedFrontEnd(answers: [])
        let session = session(with: activity)
        let ending = try await session.run(with: frontEnd, picking: PinActivity.type)
        #expect(activity.pinsTried == [nil])
        let result = session.result(of: ending)
        #expect(result.disposition == .failed)
        #expect(result.error?.code == .usage)
        #expect(result.activity != nil)
    }

    @Test("a cancel while the activity works keeps what it finished, and the result says so")
    func cancelKeepsFinishedWork() async throws {
        let activity = HalfwayActivity()
        let frontEnd = ScriptedFrontEnd(answers: [])
        let session = session(with: activity)
        Task { @MainActor in
            while session.controller?.runningActivity == nil { await Task.yield() }
            session.cancel()
        }
        let ending = try await session.run(with: frontEnd, picking: HalfwayActivity.type)
        #expect(ending.wasCancelled)
        #expect(ending.kept == KeptWork(what: "a.txt (1 of 2)", location: "Desk"))
        let result = session.result(of: ending)
        #expect(result.disposition == .cancelled)
        #expect(result.kept == ShareResult.Kept(what: "a.txt (1 of 2)", location: "Desk"))
        #expect(result.json.contains(#""kept":{"location":"Desk","resume":null,"what":"a.txt (1 of 2)"}"#), "\(result.json)")
    }

    @Test("work taken back with Undo: the form is shown again holding what the person gave it, and sent from there")
    func undoBringsTheFormBack() async throws {
        let activity = UndoneOnceActivity()
        let frontEnd = ScriptedFrontEnd(answers: [])
        frontEnd.typedAfterUndo = ["note": .text("see you at seven")]
        frontEnd.onPresent = { $0.values = ["to": .text("Ana"), "note": .text("see you at six")] }
        let session = session(with: activity)
        let ending = try await session.run(with: frontEnd, picking: UndoneOnceActivity.type)
        #expect(frontEnd.refilled == [UndoneOnceActivity.type])
        #expect(activity.sent.count == 2)
        #expect(activity.sent.last?["to"] == .text("Ana"), "what the person gave the form stays given")
        #expect(activity.sent.last?["note"] == .text("see you at seven"))
        #expect(frontEnd.shownInterface?.fields.first { $0.id == "note" }?.defaultValue == .text("see you at six"))
        #expect(ending.outcome.completed)
        #expect(session.result(of: ending).completed)
    }

    @Test("Retry after a temporary failure runs the activity again with what the form had, and the share completes")
    func retryRunsAgain() async throws {
        let activity = BusyOnceActivity()
        let frontEnd = ScriptedFrontEnd(answers: [])
        frontEnd.retries = [true]
        frontEnd.onPresent = { $0.values = ["to": .text("Ana")] }
        let session = session(with: activity)
        let ending = try await session.run(with: frontEnd, picking: BusyOnceActivity.type)
        #expect(frontEnd.offeredRetry == 1)
        #expect(activity.sent.count == 2)
        #expect(activity.sent.last?["to"] == .text("Ana"))
        #expect(ending.outcome.completed)
    }

    @Test("no Retry (Close, or nobody to ask): the temporary failure is the result; a failure that cannot go through is not offered")
    func noRetry() async throws {
        let busy = BusyOnceActivity()
        let frontEnd = ScriptedFrontEnd(answers: [])
        frontEnd.onPresent = { $0.values = ["to": .text("Ana")] }
        let ending = try await session(with: busy).run(with: frontEnd, picking: BusyOnceActivity.type)
        #expect(frontEnd.offeredRetry == 1)
        #expect(busy.sent.count == 1)
        #expect((ending.outcome.error as? ShareError)?.kind == .temporaryFailure)

        let pin = PinActivity()
        let asked = ScriptedFrontEnd(answers: [])
        asked.retries = [true]
        _ = try await session(with: pin).run(with: asked, picking: PinActivity.type)
        #expect(asked.offeredRetry == 0, "a need is asked, not retried")
        #expect(pin.pinsTried == [nil])
    }

    @Test("a plain dismissal (not a person's cancel) keeps nothing")
    func dismissKeepsNothing() async throws {
        let activity = HalfwayActivity()
        let session = session(with: activity)
        Task { @MainActor in
            while session.controller?.runningActivity == nil { await Task.yield() }
            session.controller?.dismiss()
        }
        let ending = try await session.run(with: ScriptedFrontEnd(answers: []), picking: HalfwayActivity.type)
        #expect(ending.kept == nil)
        #expect(session.result(of: ending).kept == nil)
    }

    @Test("a need's advice for scripts is left out of what a person is told")
    func adviceLeftOut() {
        #expect(ShareNeed.withoutAdvice("AirDrop: Desk asks for a PIN (give it with the pin setting)") == "AirDrop: Desk asks for a PIN")
        #expect(ShareNeed.withoutAdvice("AirDrop: Desk asks for a PIN") == "AirDrop: Desk asks for a PIN")
    }
}
