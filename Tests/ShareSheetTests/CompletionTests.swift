import Foundation
import ShareSheet
import ShareSheetTesting
import Testing

/// Counts completion-handler calls and keeps the arguments of each.
@MainActor
final class CompletionRecorder {
    private(set) var calls: [(type: ActivityType?, completed: Bool, items: [Any]?, error: (any Error)?)] = []

    func attach(to controller: ActivityViewController) {
        controller.completionWithItemsHandler = { [self] type, completed, items, error in
            calls.append((type, completed, items, error))
        }
    }
}

@MainActor
@Suite("The completion handler fires exactly once")
struct CompletionTests {
    /// Lets late deliveries (a second activityDidFinish from another thread) arrive.
    private func settle() async {
        try? await Task.sleep(for: .milliseconds(100))
    }

    @Test("on finish, with the type and what the activity returned; then it is cleared")
    func onFinish() async {
        let fake = FakeActivity(type: .testA, ending: .finishLater(true, after: .milliseconds(20)))
        fake.itemsToReturn = ["saved"]
        let controller = ActivityViewController(activityItems: ["x"], applicationActivities: [fake])
        let recorder = CompletionRecorder()
        recorder.attach(to: controller)
        controller.present(with: ScriptedPresenter(pick: .testA))
        _ = await controller.waitForCompletion()
        await settle()
        #expect(recorder.calls.count == 1)
        #expect(recorder.calls.first?.type == .testA)
        #expect(recorder.calls.first?.completed == true)
        #expect(recorder.calls.first?.items as? [String] == ["saved"])
        #expect(recorder.calls.first?.error == nil)
        #expect(controller.completionWithItemsHandler == nil)
    }

    @Test("on failure, with the error")
    func onFailure() async {
        let fake = FakeActivity(type: .testA, ending: .fail(ShareError(.temporaryFailure, "server unreachable")))
        let controller = ActivityViewController(activityItems: ["x"], applicationActivities: [fake])
        let recorder = CompletionRecorder()
        recorder.attach(to: controller)
        controller.present(with: ScriptedPresenter(pick: .testA))
        _ = await controller.waitForCompletion()
        await settle()
        #expect(recorder.calls.count == 1)
        #expect(recorder.calls.first?.completed == false)
        #expect((recorder.calls.first?.error as? ShareError)?.kind == .temporaryFailure)
    }

    @Test("on dismissal, with (nil, false, nil, nil)")
    func onDismissal() async {
        let controller = ActivityViewController(activityItems: ["x"], applicationActivities: [FakeActivity(type: .testA)])
        let recorder = CompletionRecorder()
        recorder.attach(to: controller)
        controller.present()
        controller.dismiss()
        controller.dismiss()
        await settle()
        #expect(recorder.calls.count == 1)
        #expect(recorder.calls.first?.type == nil)
        #expect(recorder.calls.first?.completed == false)
        #expect(recorder.calls.first?.items == nil)
        #expect(recorder.calls.first?.error == nil)
    }

    @Test("when activityDidFinish is called twice, from two threads")
    func finishTwice() async {
        let fake = FakeActivity(type: .testA, ending: .never)
        let controller = ActivityViewController(activityItems: ["x"], applicationActivities: [fake])
        let recorder = CompletionRecorder()
        recorder.attach(to: controller)
        controller.present()
        #expect(controller.select(.testA))
        while controller.phase != .performing(.testA) { await Task.yield() }
        let done = Locked(0)
        for completed in [true, false] {
            Thread.detachNewThread {
                fake.activityDidFinish(completed)
                done.withLock { $0 += 1 }
            }
        }
        fake.activityDidFinish(true)
        _ = await controller.waitForCompletion()
        while done.withLock({ $0 }) < 2 { await Task.yield() }
        await settle()
        #expect(recorder.calls.count == 1)
    }

    @Test("a second pick while providers run is ignored")
    func secondPickIgnored() async {
        let log = CallLog()
        let provider = SleepingProvider(name: "p", placeholder: "x", result: "y", duration: .milliseconds(200), log: log)
        let first = FakeActivity(type: .testA, log: log)
        let second = FakeActivity(type: .testB, log: log)
        let controller = ActivityViewController(activityItems: [provider], applicationActivities: [first, second])
        let recorder = CompletionRecorder()
        recorder.attach(to: controller)
        controller.present()
        #expect(controller.select(.testA))
        #expect(controller.select(.testB) == false)
        #expect(controller.select(.testA) == false)
        let outcome = await controller.waitForCompletion()
        await settle()
        #expect(outcome.activityType == .testA)
        #expect(recorder.calls.count == 1)
        #expect(provider.runCount == 1)
        #expect(second.preparedItems == nil)
    }

    @Test("a pick of an activity the sheet does not offer is ignored")
    func pickNotOffered() {
        let controller = ActivityViewController(
            activityItems: ["x"], applicationActivities: [FakeActivity(type: .testA) { _ in false }])
        controller.present()
        #expect(controller.select(.testA) == false)
        #expect(controller.phase == .showingSheet)
        controller.dismiss()
    }
}
