import Foundation
import ShareSheet
import ShareSheetTesting
import Testing

/// What the person chose to send (SPEC §13) applied by the controller: item sources are asked
/// as §1.5 says, and the choices change what they returned.
@MainActor
@Suite("Item choices: left out, edited, prepared")
struct ItemChoicesTests {
    @Test("a left-out item's source is never asked for its item; an edited text replaces what its source returned")
    func sourcesSeeTheSameCalls() async {
        let log = CallLog()
        let sources = ["one", "two", "three"].map { name in
            RecordingItemSource(name: name, placeholder: "text", log: log) { _ in "\(name) as sent" }
        }
        let fake = FakeActivity(type: .testA, log: log)
        let controller = ActivityViewController(activityItems: sources, applicationActivities: [fake])
        controller.itemChoices = ItemChoices(leftOut: [1], editedTexts: [2: "three, edited"])
        controller.present(with: ScriptedPresenter(pick: .testA))
        let outcome = await controller.waitForCompletion()
        #expect(outcome.completed)
        let type = ActivityType.testA.rawValue
        #expect(log.names.filter { $0.hasPrefix("item(") } == ["item(one, \(type))", "item(three, \(type))"])
        #expect(!log.names.contains { $0.contains("(two, \(type))") }, "\(log.names)")
        // Every source was asked for its placeholder: the header shows every item.
        #expect(log.names.filter { $0.hasPrefix("placeholder(") }.count == 3)
        #expect(fake.preparedItems?.compactMap { $0 as? String } == ["one as sent", "three, edited"])
    }

    @Test("leaving the only image out moves Save to Photos to the unavailable list; taking it back restores it")
    func leftOutRebuildsTheSheet() {
        let (registry, _) = inMemoryRegistry()
        let controller = ActivityViewController(activityItems: [Image(data: Samples.pngData)!, Samples.string], applicationActivities: nil, registry: registry)
        #expect(controller.activities.contains { $0.activityType == .saveToCameraRoll })
        controller.itemChoices.leftOut = [0]
        #expect(!controller.activities.contains { $0.activityType == .saveToCameraRoll })
        #expect(controller.sheet.unavailable.contains { $0.activity.activityType == .saveToCameraRoll })
        // The header still shows both items.
        #expect(controller.sheet.itemKinds.count == 2)
        controller.itemChoices.leftOut = []
        #expect(controller.activities.contains { $0.activityType == .saveToCameraRoll })
    }

    @Test("the preparer gets the items and the activity after the sources answered; the activity receives what it returned; finish at the end")
    func preparerBetweenSourcesAndActivity() async {
        let log = CallLog()
        let source = RecordingItemSource(name: "s", placeholder: "text", log: log) { _ in "from the source" }
        let fake = FakeActivity(type: .testA, log: log)
        let preparer = RecordingPreparer(log: log)
        let controller = ActivityViewController(activityItems: [source], applicationActivities: [fake])
        controller.itemPreparer = preparer
        controller.itemChoices.imageSize = .small
        controller.present(with: ScriptedPresenter(pick: .testA))
        #expect(await controller.waitForCompletion().completed)
        let order = log.names.filter { $0.hasPrefix("item(") || $0.hasPrefix("prepare") || $0 == "finish" }
        #expect(order == ["item(s, \(ActivityType.testA.rawValue))", "prepareItems(small)", "prepare(\(ActivityType.testA.rawValue))", "finish"])
        #expect(fake.preparedItems?.compactMap { $0 as? String } == ["from the source, prepared"])
    }

    @Test("a dismissal while the preparer works: the activity never runs, and the preparer is finished")
    func dismissedWhilePreparing() async {
        let log = CallLog()
        let fake = FakeActivity(type: .testA, log: log)
        let preparer = RecordingPreparer(log: log, delay: .seconds(30))
        let controller = ActivityViewController(activityItems: ["text"], applicationActivities: [fake])
        controller.itemPreparer = preparer
        controller.present(with: ScriptedPresenter(pick: .testA))
        while !log.names.contains("prepareItems(original)") { await Task.yield() }
        controller.dismiss()
        let outcome = await controller.waitForCompletion()
        #expect(outcome.activityType == nil)
        #expect(fake.preparedItems == nil)
        #expect(log.names.contains("finish"))
    }

    @Test("a preparer's failure is the share's error, naming the item")
    func preparerFails() async {
        let fake = FakeActivity(type: .testA, log: CallLog())
        let preparer = RecordingPreparer(log: CallLog(), failure: ShareError(.badData, "photo.jpg: not an image this can read"))
        let controller = ActivityViewController(activityItems: ["text"], applicationActivities: [fake])
        controller.itemPreparer = preparer
        controller.present(with: ScriptedPresenter(pick: .testA))
        let outcome = await controller.waitForCompletion()
        #expect(!outcome.completed)
        #expect((outcome.error as? ShareError)?.message == "photo.jpg: not an image this can read")
        #expect(fake.preparedItems == nil)
    }
}

/// A preparer that appends ", prepared" to text, after an optional delay, and logs its calls.
@MainActor
private final class RecordingPreparer: ItemPreparing {
    let log: CallLog
    let delay: Duration
    let failure: ShareError?

    init(log: CallLog, delay: Duration = .zero, failure: ShareError? = nil) {
        self.log = log
        self.delay = delay
        self.failure = failure
    }

    func needsPreparing(_ items: [Any], for activity: Activity, choices: ItemChoices) -> Bool { true }

    func prepare(_ items: [Any], for activity: Activity, choices: ItemChoices) async throws -> [Any] {
        log.record("prepareItems(\((choices.imageSize ?? .original).rawValue))")
        if delay > .zero { try? await Task.sleep(for: delay) }
        if let failure { throw failure }
        return items.map { ($0 as? String).map { $0 + ", prepared" } ?? $0 }
    }

    func byteCount(of items: [Any], at size: ImageSize, removingLocation: Bool) async -> Int? { nil }

    func finish(keepingCopies: Bool) { log.record("finish") }
}
