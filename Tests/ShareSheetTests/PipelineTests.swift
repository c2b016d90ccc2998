import Foundation
import ShareSheet
import ShareSheetTesting
import Testing

/// An activity that overrides only what it must, so `perform()` is UIKit's default.
final class MinimalActivity: Activity {
    override var activityType: ActivityType? { .testA }
    override func canPerform(withActivityItems activityItems: [Any]) -> Bool { true }
}

@MainActor
@Suite("The resolution pipeline of SPEC §1.6")
struct PipelineTests {
    @Test("building the sheet asks only for placeholders; no item or provider work happens")
    func buildAsksOnlyPlaceholders() {
        let log = CallLog()
        let source = RecordingItemSource(name: "s", placeholder: "text", log: log) { _ in "real" }
        let provider = SleepingProvider(name: "p", placeholder: "text", result: "late", duration: .seconds(5), log: log)
        let fake = FakeActivity(type: .testA, log: log)
        let controller = ActivityViewController(activityItems: [source, provider], applicationActivities: [fake])
        controller.present()
        #expect(controller.activities.map(\.activityType) == [.testA])
        #expect(log.names == ["placeholder(s)", "dataType(s, nil)", "canPerform(\(ActivityType.testA.rawValue))"])
        #expect(provider.runCount == 0)
        #expect(fake.canPerformItems.count == 2)
        #expect(fake.canPerformItems[1] as? String == "text")
        controller.dismiss()
    }

    @Test("the pick runs sources, then providers off the main thread with activityType set, then prepare and perform")
    func callOrder() async {
        let log = CallLog()
        let source = RecordingItemSource(name: "s", placeholder: "text", log: log) { type in "for \(type!.rawValue)" }
        let provider = SleepingProvider(name: "p", placeholder: "text", result: "made", duration: .milliseconds(20), log: log)
        let fake = FakeActivity(type: .testA, log: log)
        let controller = ActivityViewController(activityItems: [source, provider], applicationActivities: [fake])
        controller.present(with: ScriptedPresenter(pick: .testA))
        let outcome = await controller.waitForCompletion()
        #expect(outcome.completed)
        let afterBuild = Array(log.names.drop { $0 != "item(s, \(ActivityType.testA.rawValue))" })
        #expect(
            afterBuild == [
                "item(s, \(ActivityType.testA.rawValue))", "run(p)", "done(p)",
                "dataType(s, \(ActivityType.testA.rawValue))", "subject(s, \(ActivityType.testA.rawValue))",
                "prepare(\(ActivityType.testA.rawValue))", "perform(\(ActivityType.testA.rawValue))",
            ])
        let run = log.entries(startingWith: "run(p)").first
        #expect(run?.onMainActor == false)
        #expect(log.entries(startingWith: "item(s").first?.onMainActor == true)
        #expect(log.entries(startingWith: "prepare").first?.onMainActor == true)
        #expect(log.entries(startingWith: "perform").first?.onMainActor == true)
        #expect(provider.typeSeenAtStart == .testA)
        #expect(fake.preparedItems?.compactMap { $0 as? String } == ["for \(ActivityType.testA.rawValue)", "made"])
    }

    @Test("dataTypeIdentifier is asked with nil while building, then with the chosen type")
    func dataTypeIdentifierOrder() async {
        let log = CallLog()
        let source = RecordingItemSource(
            name: "d", placeholder: Samples.pngData, log: log, dataTypeIdentifier: "public.png"
        ) { _ in Samples.pngData }
        let (registry, backends) = inMemoryRegistry()
        let controller = ActivityViewController(activityItems: [source], applicationActivities: nil, registry: registry)
        controller.present(with: ScriptedPresenter(pick: .mail))
        _ = await controller.waitForCompletion()
        let asked = log.names.filter { $0.hasPrefix("dataType") }
        #expect(asked == ["dataType(d, nil)", "dataType(d, \(ActivityType.mail.rawValue))"])
        // Typed data reaches the built-in as a named DataItem, never as an unnamed blob.
        let received = backends.received[.mail]?.first?.first as? DataItem
        #expect(received?.typeIdentifier == "public.png")
        #expect(received?.filename == "item.png")
    }

    @Test("a nil item drops that item")
    func nilDropsItem() async {
        let log = CallLog()
        let dropped = RecordingItemSource(name: "gone", placeholder: "x", log: log) { _ in nil }
        let fake = FakeActivity(type: .testA, log: log)
        let controller = ActivityViewController(
            activityItems: ["first", dropped, "last"], applicationActivities: [fake])
        controller.present(with: ScriptedPresenter(pick: .testA))
        _ = await controller.waitForCompletion()
        #expect(fake.preparedItems?.compactMap { $0 as? String } == ["first", "last"])
        #expect(fake.preparedItems?.count == 2)
    }

    @Test("providers run concurrently, and prepare gets the items in their original order")
    func concurrentProvidersKeepOrder() async {
        let log = CallLog()
        let slow = SleepingProvider(name: "slow", placeholder: "x", result: "slow", duration: .milliseconds(600), log: log)
        let fast = SleepingProvider(name: "fast", placeholder: "x", result: "fast", duration: .milliseconds(30), log: log)
        let middle = SleepingProvider(name: "mid", placeholder: "x", result: "mid", duration: .milliseconds(300), log: log)
        let fake = FakeActivity(type: .testA, log: log)
        let controller = ActivityViewController(
            activityItems: ["a", slow, "b", middle, fast, "c"], applicationActivities: [fake])
        controller.present(with: ScriptedPresenter(pick: .testA))
        _ = await controller.waitForCompletion()
        #expect(fake.preparedItems?.compactMap { $0 as? String } == ["a", "slow", "b", "mid", "fast", "c"])
        // Concurrent: every provider started before the slowest finished, and the fastest
        // finished first although it was given last.
        let names = log.names
        let lastStart = ["run(slow)", "run(mid)", "run(fast)"].compactMap { names.firstIndex(of: $0) }.max()!
        #expect(lastStart < names.firstIndex(of: "done(slow)")!)
        #expect(names.firstIndex(of: "done(fast)")! < names.firstIndex(of: "done(mid)")!)
        #expect(names.firstIndex(of: "done(mid)")! < names.firstIndex(of: "done(slow)")!)
    }

    @Test("the async closure form gets the activity type and a progress, off the main thread")
    func closureProvider() async {
        let seen = Locked<(ActivityType?, Bool)>((nil, true))
        let provider = ActivityItemProvider(placeholder: "text") { type, progress in
            progress.totalUnitCount = 2
            progress.completedUnitCount = 2
            seen.withLock { $0 = (type, MainQueue.isCurrent) }
            return "made for \(type.rawValue)"
        }
        let fake = FakeActivity(type: .testA)
        let controller = ActivityViewController(activityItems: [provider], applicationActivities: [fake])
        controller.present(with: ScriptedPresenter(pick: .testA))
        _ = await controller.waitForCompletion()
        #expect(seen.withLock { $0.0 } == .testA)
        #expect(seen.withLock { $0.1 } == false)
        #expect(fake.preparedItems?.first as? String == "made for \(ActivityType.testA.rawValue)")
        #expect(provider.progress.completedUnitCount == 2)
    }

    @Test("a provider that throws fails the share with its error")
    func throwingProvider() async {
        let provider = ActivityItemProvider(placeholder: "text") { _, _ in
            throw ShareError(.ioError, "report.pdf: disk full")
        }
        let fake = FakeActivity(type: .testA)
        let controller = ActivityViewController(activityItems: [provider], applicationActivities: [fake])
        controller.present(with: ScriptedPresenter(pick: .testA))
        let outcome = await controller.waitForCompletion()
        #expect(outcome.activityType == .testA)
        #expect(outcome.completed == false)
        #expect((outcome.error as? ShareError)?.message == "report.pdf: disk full")
        #expect(fake.preparedItems == nil)
    }

    @Test("perform() by default finishes with false")
    func defaultPerform() async {
        let controller = ActivityViewController(activityItems: ["x"], applicationActivities: [MinimalActivity()])
        controller.present(with: ScriptedPresenter(pick: .testA))
        let outcome = await controller.waitForCompletion()
        #expect(outcome.activityType == .testA)
        #expect(outcome.completed == false)
        #expect(outcome.error == nil)
    }

    @Test("the sources' subject reaches the activity's context")
    func subject() async {
        let log = CallLog()
        let first = RecordingItemSource(name: "a", placeholder: "x", log: log) { _ in "x" }
        let second = RecordingItemSource(name: "b", placeholder: "y", log: log, subject: "Dinner") { _ in "y" }
        let (registry, backends) = inMemoryRegistry()
        let controller = ActivityViewController(activityItems: [first, second], applicationActivities: nil, registry: registry)
        controller.present(with: ScriptedPresenter(pick: .mail))
        _ = await controller.waitForCompletion()
        #expect(backends.subjects[.mail] == "Dinner")
    }

    @Test("an interface is shown instead of perform(), and submitted values reach it")
    func interfacePath() async {
        let fake = FakeActivity(type: .testA)
        fake.interface = ActivityInterface(
            title: "Send", fields: [InterfaceField(id: "to", label: "To", kind: .emailAddresses, isRequired: true)]
        ) { _ in }
        let controller = ActivityViewController(activityItems: ["x"], applicationActivities: [fake])
        controller.presetValues = ["to": .text("a@example.com, b@example.org")]
        controller.present(with: ScriptedPresenter(pick: .testA))
        let outcome = await controller.waitForCompletion()
        #expect(outcome.completed)
        #expect(fake.submittedValues?["to"] == .list(["a@example.com", "b@example.org"]))
        #expect(fake.log.names.contains("perform(\(ActivityType.testA.rawValue))") == false)
    }

    @Test("a script that cannot fill a required field fails with a usage error naming the field")
    func interfaceMissingValue() async {
        let fake = FakeActivity(type: .testA, title: "Mail")
        fake.interface = ActivityInterface(
            title: "Send", fields: [InterfaceField(id: "to", label: "To", kind: .emailAddresses, isRequired: true)]
        ) { _ in }
        let controller = ActivityViewController(activityItems: ["x"], applicationActivities: [fake])
        controller.present(with: ScriptedPresenter(pick: .testA))
        let outcome = await controller.waitForCompletion()
        #expect(outcome.completed == false)
        let error = outcome.error as? ShareError
        #expect(error?.kind == .usage)
        // The plain default names the field; the command words it as its option (`--to …`).
        #expect(error?.message == "Mail: To is required (set it with to)")
        #expect(error?.setting == ShareError.Setting("to"))
        #expect(error?.message.contains("--") == false)
    }
}
