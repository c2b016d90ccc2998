import Foundation
import ShareSheet

/// One share, run to its result the same way under every front end (SPEC §11): the pick, the
/// activity, and what only a person can answer after the pick (a receiver's PIN) asked through
/// the front end, the activity run again with the answer, at most three times; work the person
/// took back (Undo) brings the activity's form back filled; a failure that may go through
/// another time runs again when the person asks (Retry); a cancel keeps finished work, then
/// dismisses.
///
/// The command, the terminal sheet, the window, the service and the window test application
/// all run their shares through a session; none of them asks again or keeps work on its own.
@MainActor
public final class ShareSession {
    /// How many times a need is asked in one share before its failure is the result.
    public static let maximumAnswers = 3

    /// How a session ended.
    public struct Ending {
        /// What the last presentation finished with.
        public var outcome: ShareOutcome
        /// The controller of the last presentation.
        public var controller: ActivityViewController
        /// The activity that ran last, for its names; nil when none was picked.
        public var activity: Activity?
        /// What a cancel kept (files that reached a device, a message in the outbox).
        public var kept: KeptWork?
        /// True when the session was cancelled (`cancel()` or the front end's Cancel).
        public var wasCancelled: Bool
        /// The values the person typed in answer to needs, by field id (never printed).
        public var answers: [String: String]
    }

    private let host: ShareHost
    private let makeController: ([(key: String, value: String)]) throws -> ActivityViewController
    /// The controller presenting now.
    public private(set) var controller: ActivityViewController?
    private var cancelled = false

    /// Makes a session.
    /// - Parameters:
    ///   - host: the share layer, for activity names.
    ///   - first: the controller to present first (its sheet is what `--list` would show).
    ///   - remake: a controller for the same items with these values set ahead as well: the
    ///     person's answers and what they gave the activity's form before.
    public init(
        host: ShareHost, first: ActivityViewController,
        remake: @escaping ([(key: String, value: String)]) throws -> ActivityViewController
    ) {
        self.host = host
        controller = first
        makeController = remake
    }

    /// Presents until the share has its result.
    /// - Parameters:
    ///   - frontEnd: presenters and the person to ask.
    ///   - pick: the activity picked ahead (`--activity`), or nil for the sheet.
    /// - Throws: what `remake` throws for a run again.
    public func run(with frontEnd: any ShareFrontEnd, picking pick: ActivityType? = nil) async throws -> Ending {
        var picking = pick
        var carried: [(key: String, value: String)] = []
        var answers: [String: String] = [:]
        var asked: [String: Int] = [:]
        var controller = self.controller!
        var refilling = false
        while true {
            controller.present(with: refilling ? frontEnd.presenter(refilling: picking!) : frontEnd.presenter(picking: picking))
            refilling = false
            let outcome = await controller.waitForCompletion()
            let interrupted = controller.interruptedActivity
            if interrupted != nil || cancelled { await controller.waitForProvidersToStop() }
            let kept = await interrupted?.keptWork()
            let activity = (outcome.activityType ?? picking).flatMap { host.activity($0, on: controller.sheet) }
            if !cancelled, let type = outcome.activityType, (activity as? UndoableActivity)?.wasUndone == true {
                // Taken back before it went: the form again, with everything the person gave it.
                carry(controller.submittedValues, into: &carried)
                controller = try remade(from: controller, carrying: carried)
                self.controller = controller
                picking = type
                refilling = true
                continue
            }
            if !cancelled, kept == nil, let type = outcome.activityType,
                let need = ShareNeed.of(
                    outcome.error, interface: frontEnd.shownInterface,
                    activityTitle: activity.map { host.names.entry(for: $0).title } ?? host.names.name(of: type),
                    earlierAnswers: 0),
                asked[need.field, default: 0] < Self.maximumAnswers
            {
                var asking = need
                asking.earlierAnswers = asked[need.field, default: 0]
                if let answer = await frontEnd.answer(asking), !cancelled {
                    asked[need.field, default: 0] += 1
                    answers[need.field] = answer
                    // What the person gave the form stays given; the answer comes on top.
                    carry(controller.submittedValues.filter { $0.key != need.field }, into: &carried)
                    carried.removeAll { $0.key == need.field }
                    carried.append((key: need.field, value: answer))
                    controller = try remade(from: controller, carrying: carried)
                    self.controller = controller
                    picking = type
                    continue
                }
            }
            if !cancelled, kept == nil, let type = outcome.activityType, Self.mayGoThrough(outcome.error),
                await frontEnd.runsAgain(after: outcome), !cancelled
            {
                // Retry: the same activity with what the person gave its form, sent again.
                carry(controller.submittedValues, into: &carried)
                controller = try remade(from: controller, carrying: carried)
                self.controller = controller
                picking = type
                continue
            }
            let ending = Ending(
                outcome: outcome, controller: controller, activity: activity, kept: kept,
                wasCancelled: cancelled || interrupted != nil, answers: answers)
            frontEnd.sessionEnded(ending)
            return ending
        }
    }

    /// True for a failure that may go through another time, which a person may retry: a
    /// temporary failure or something unreachable now, and not a need (those are asked).
    public static func mayGoThrough(_ error: (any Error)?) -> Bool {
        guard let error = error as? ShareError, error.field == nil else { return false }
        return error.kind == .temporaryFailure || error.kind == .unavailable
    }

    /// A controller for the next run: the values set ahead, and what the person chose to send
    /// (items left out, photo size and location, edited text) as before.
    private func remade(from previous: ActivityViewController, carrying carried: [(key: String, value: String)]) throws
        -> ActivityViewController
    {
        let next = try makeController(carried)
        next.itemChoices = previous.itemChoices
        return next
    }

    /// Adds what the person gave a form to the values set ahead for the next run, replacing
    /// earlier values of the same fields; empty values are left out.
    private func carry(_ values: InterfaceValues, into carried: inout [(key: String, value: String)]) {
        for (key, value) in values.sorted(by: { $0.key < $1.key }) where !value.isEmpty {
            carried.removeAll { $0.key == key }
            carried.append((key: key, value: value.text))
        }
    }

    /// Cancels as a person does: a running activity keeps what it finished, then the sheet is
    /// dismissed. Ctrl-C, the window's Cancel and the service's `Close` all come here.
    public func cancel() {
        cancelled = true
        controller?.dismissKeepingWork()
    }

    /// The result of an ending, as every front end reports it: what a cancel kept included.
    /// - Parameters:
    ///   - ending: what `run(with:picking:)` returned.
    ///   - interfaceCancelled: true when the person cancelled the activity's form.
    public func result(of ending: Ending, interfaceCancelled: Bool = false) -> ShareResult {
        var result = host.result(of: ending.outcome, activity: ending.activity, interfaceCancelled: interfaceCancelled)
        if let kept = ending.kept {
            result.kept = ShareResult.Kept(kept)
            if result.activityType == nil, let activity = ending.activity {
                let entry = host.names.entry(for: activity)
                result.activityType = entry.activityType
                result.activity = entry.name
            }
        }
        return result
    }
}
