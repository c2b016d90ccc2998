import Foundation
import ShareSheet
import ShareSheetTesting
import Testing

/// A UIKit-style provider that only records: entering `item`, and whether it was cancelled then.
final class EnteringProvider: ActivityItemProvider, @unchecked Sendable {
    let label: String
    let log: CallLog

    init(_ label: String, log: CallLog) {
        self.label = label
        self.log = log
        super.init(placeholderItem: "x")
    }

    override var item: Any {
        log.record("item(\(label), cancelled: \(isCancelled))")
        return "made by \(label)"
    }
}

@MainActor
@Suite("Providers are Operations on the controller's queue (SPEC §1.5)")
struct ProviderOperationTests {
    private let typeA = ActivityType.testA.rawValue

    @Test("a dismissal in the same turn as the pick cancels providers that have not started: item never runs")
    func sameTurnDismissal() async {
        let log = CallLog()
        let providers = (0..<3).map { EnteringProvider("p\($0)", log: log) }
        let closureRan = Locked(false)
        let closure = ActivityItemProvider(placeholder: "x") { _, _ in
            closureRan.withLock { $0 = true }
            return "made"
        }
        let fake = FakeActivity(type: .testA, log: log)
        let controller = ActivityViewController(activityItems: providers + [closure], applicationActivities: [fake])
        controller.present()
        _ = controller.sheet
        log.clear()
        #expect(controller.select(.testA))
        controller.dismiss()
        await controller.waitForProvidersToStop()
        #expect(log.names == [])
        #expect(closureRan.withLock { $0 } == false)
        for provider in providers + [closure] {
            #expect(provider.isCancelled)
            #expect(provider.isFinished)
            #expect(!provider.isExecuting)
        }
        #expect(fake.preparedItems == nil)
    }

    @Test("after a share both forms are finished Operations whose completion blocks have run")
    func finishedWithCompletionBlocks() async {
        let log = CallLog()
        let subclass = EnteringProvider("sub", log: log)
        let closure = ActivityItemProvider(placeholder: "x") { _, _ in
            log.record("closure")
            return "made by closure"
        }
        subclass.completionBlock = { log.record("completion(sub)") }
        closure.completionBlock = { log.record("completion(closure)") }
        let fake = FakeActivity(type: .testA, log: log)
        let controller = ActivityViewController(activityItems: [subclass, closure], applicationActivities: [fake])
        controller.present(with: ScriptedPresenter(pick: .testA))
        log.clear()
        let outcome = await controller.waitForCompletion()
        #expect(outcome.completed)
        #expect(subclass.isFinished && closure.isFinished)
        #expect(!subclass.isExecuting && !closure.isExecuting)
        #expect(!subclass.isCancelled && !closure.isCancelled)
        #expect(subclass.isAsynchronous)
        let names = log.names
        #expect(Set(names.prefix(4)) == ["item(sub, cancelled: false)", "completion(sub)", "closure", "completion(closure)"])
        #expect(names.firstIndex(of: "item(sub, cancelled: false)")! < names.firstIndex(of: "completion(sub)")!)
        #expect(names.firstIndex(of: "closure")! < names.firstIndex(of: "completion(closure)")!)
        #expect(Array(names.dropFirst(4)) == ["prepare(\(typeA))", "perform(\(typeA))"])
        #expect(log.entries(startingWith: "item").allSatisfy { !$0.onMainActor })
        #expect(log.entries(startingWith: "closure").allSatisfy { !$0.onMainActor })
        #expect(fake.preparedItems?.compactMap { $0 as? String } == ["made by sub", "made by closure"])
    }

    @Test("a provider that depends on another starts only after it finished, as Foundation documents")
    func dependencies() async {
        let log = CallLog()
        let first = SleepingProvider(name: "first", placeholder: "x", result: "1", duration: .milliseconds(80), log: log)
        let second = SleepingProvider(name: "second", placeholder: "x", result: "2", duration: .milliseconds(5), log: log)
        let outside = BlockOperation { log.record("outside") }
        second.addDependency(first)
        first.addDependency(outside)
        let fake = FakeActivity(type: .testA, log: log)
        // The dependent comes first in the items: the queue, not the order, decides.
        let controller = ActivityViewController(activityItems: [second, first], applicationActivities: [fake])
        controller.present(with: ScriptedPresenter(pick: .testA))
        log.clear()
        OperationQueue().addOperation(outside)
        let outcome = await controller.waitForCompletion()
        #expect(outcome.completed)
        #expect(
            log.names == [
                "outside", "run(first)", "done(first)", "run(second)", "done(second)", "prepare(\(typeA))",
                "perform(\(typeA))",
            ])
        #expect(fake.preparedItems?.compactMap { $0 as? String } == ["2", "1"])
    }

    @Test("a re-run after a cancelled run is a fresh operation: the provider stays finished, its completion block ran once")
    func rerunIsAFreshOperation() async {
        let provider = SlowFirstRun()
        let completions = Locked(0)
        provider.completionBlock = { completions.withLock { $0 += 1 } }
        let fake = FakeActivity(type: .testA)
        let controller = ActivityViewController(activityItems: [provider], applicationActivities: [fake])
        controller.present()
        controller.select(.testA)
        while provider.runs == 0 { try? await Task.sleep(for: .milliseconds(2)) }
        controller.dismiss()
        await controller.waitForProvidersToStop()
        #expect(provider.isFinished)
        #expect(provider.isCancelled)
        #expect(completions.withLock { $0 } == 1)
        controller.present(with: ScriptedPresenter(pick: .testA))
        let outcome = await controller.waitForCompletion()
        #expect(outcome.completed)
        #expect(provider.runs == 2)
        #expect(provider.isCancelled == false)
        #expect(provider.isFinished)
        #expect(completions.withLock { $0 } == 1)
        #expect(fake.preparedItems?.first as? String == "made")
    }

    @Test("the default item has nothing to give: the item is left out, never the placeholder")
    func defaultItemIsLeftOut() async {
        let provider = ActivityItemProvider(placeholderItem: "placeholder")
        let fake = FakeActivity(type: .testA)
        let controller = ActivityViewController(
            activityItems: ["kept", provider], applicationActivities: [fake])
        controller.present(with: ScriptedPresenter(pick: .testA))
        let outcome = await controller.waitForCompletion()
        #expect(outcome.completed)
        #expect(provider.item is NSNull)
        #expect(fake.preparedItems?.count == 1)
        #expect(fake.preparedItems?.first as? String == "kept")
    }
}
