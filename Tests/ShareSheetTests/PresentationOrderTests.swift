import Foundation
import ShareSheet
import ShareSheetTesting
import Testing

@MainActor
@Suite("The end of a presentation, in UIKit's order (SPEC §1.6 step 6)")
struct PresentationOrderTests {
    private let typeA = ActivityType.testA.rawValue

    @Test("the presenter dismisses the sheet before the completion handler runs")
    func dismissBeforeHandler() async {
        let log = CallLog()
        let fake = FakeActivity(type: .testA, log: log)
        let controller = ActivityViewController(activityItems: ["x"], applicationActivities: [fake])
        controller.completionWithItemsHandler = { type, completed, _, _ in
            log.record("handler(\(type?.rawValue ?? "nil"), \(completed))")
        }
        controller.present(with: RecordingPresenter(name: "p", log: log, pick: .testA))
        _ = await controller.waitForCompletion()
        #expect(
            log.names.filter { !$0.hasPrefix("canPerform") } == [
                "p: sheet", "prepare(\(typeA))", "perform(\(typeA))", "p: dismiss(\(typeA))", "handler(\(typeA), true)",
            ])
    }

    @Test("a dismissal also reaches the presenter before the handler")
    func dismissalOrder() {
        let log = CallLog()
        let controller = ActivityViewController(activityItems: ["x"], applicationActivities: [FakeActivity(type: .testA)])
        controller.completionWithItemsHandler = { type, _, _, _ in log.record("handler(\(type?.rawValue ?? "nil"))") }
        controller.present(with: RecordingPresenter(name: "p", log: log))
        controller.dismiss()
        #expect(log.names == ["p: sheet", "p: dismiss(nil)", "handler(nil)"])
    }

    @Test("a handler that presents the same controller again gets a fresh, working presentation")
    func handlerPresentsAgain() async throws {
        let log = CallLog()
        let fake = FakeActivity(type: .testA, log: log)
        fake.interface = ActivityInterface(
            title: "Send", fields: [InterfaceField(id: "to", label: "To", kind: .text, isRequired: true)]
        ) { values in log.record("submitted(\(values["to"]?.text ?? ""))") }
        let controller = ActivityViewController(activityItems: ["x"], applicationActivities: [fake])
        let first = RecordingPresenter(name: "first", log: log, pick: .testA, submit: ["to": .text("one")])
        let second = RecordingPresenter(name: "second", log: log, pick: .testA)
        controller.completionWithItemsHandler = { [unowned controller] type, completed, _, _ in
            log.record("handler 1(\(completed))")
            controller.completionWithItemsHandler = { _, completed, _, _ in log.record("handler 2(\(completed))") }
            controller.present(with: second)
        }
        controller.present(with: first)
        let firstOutcome = await controller.waitForCompletion()
        #expect(firstOutcome.activityType == .testA)
        #expect(firstOutcome.completed)

        // The second presentation goes on by itself: its presenter picks, the interface arrives.
        let arrived = await waitUntil { controller.phase == .showingInterface(.testA) }
        try #require(arrived, "the second presentation never showed its interface")
        #expect(second.shownSheets.count == 1)
        #expect(second.shownInterfaces.map(\.title) == ["Send"])
        #expect(first.shownInterfaces.count == 1)
        #expect(controller.submitInterface(["to": .text("two")]).isEmpty)
        let secondOutcome = await controller.waitForCompletion()
        #expect(secondOutcome.completed)
        #expect(first.outcomes.count == 1)
        #expect(second.outcomes.count == 1)
        #expect(
            log.names.filter { !$0.hasPrefix("canPerform") && !$0.hasPrefix("prepare") } == [
                "first: sheet", "first: interface(Send)", "submitted(one)", "first: dismiss(\(typeA))", "handler 1(true)",
                "second: sheet", "second: interface(Send)", "submitted(two)", "second: dismiss(\(typeA))",
                "handler 2(true)",
            ])
        #expect(controller.phase == .idle)
    }
}

/// Waits (yielding, up to 20 s) until `condition` holds; returns whether it did.
@MainActor
func waitUntil(_ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(20)
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(2))
    }
    return condition()
}
