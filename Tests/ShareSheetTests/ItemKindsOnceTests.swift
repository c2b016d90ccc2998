import Foundation
import ShareSheet
import ShareSheetTesting
import Testing
import UniformTypes

/// A built-in that records the kinds it is asked about and the items it receives.
final class KindRecordingBuiltIn: BuiltInActivity {
    let log: CallLog
    private(set) var askedKinds: [[ItemKind]] = []
    private(set) var preparedItems: [Any]?

    init(descriptor: BuiltInActivityDescriptor, log: CallLog) {
        self.log = log
        super.init(descriptor: descriptor)
    }

    override func canPerform(withItemKinds kinds: [ItemKind]) -> Bool {
        log.record("canPerform(kinds: \(kinds.count))")
        askedKinds.append(kinds)
        return super.canPerform(withItemKinds: kinds)
    }

    override func prepare(withActivityItems activityItems: [Any]) { preparedItems = activityItems }
    override func perform() { activityDidFinish(true) }
}

@MainActor
@Suite("Each item is classified once per sheet (SPEC §1.6 step 1)")
struct ItemKindsOnceTests {
    @Test("built-ins decide from the kinds the sheet computed, and receive only the items they accept")
    func builtInsUseSheetKinds() async throws {
        let log = CallLog()
        let registry = ActivityRegistry()
        var made: KindRecordingBuiltIn?
        let descriptor = try #require(registry.descriptor(for: .addToReadingList))
        registry.install(.addToReadingList) {
            let activity = KindRecordingBuiltIn(descriptor: descriptor, log: log)
            made = activity
            return activity
        }
        let items: [Any] = ["text", Samples.webURL, Samples.imageFile, URL(string: "https://example.org")!]
        let controller = ActivityViewController(activityItems: items, applicationActivities: nil, registry: registry)
        let sheet = controller.sheet
        let activity = try #require(made)
        #expect(sheet.actionRow.contains { $0 === activity })
        #expect(activity.askedKinds.count == 1)
        // The sheet's kinds, each distinct kind once: the answer depends only on which there are.
        #expect(sheet.itemKinds == [.string, .webURL, .fileURL(.jpeg), .webURL])
        #expect(activity.askedKinds.first == [.string, .webURL, .fileURL(.jpeg)])

        controller.present(with: ScriptedPresenter(pick: .addToReadingList))
        let outcome = await controller.waitForCompletion()
        #expect(outcome.completed)
        #expect(activity.preparedItems?.compactMap { $0 as? URL } == [Samples.webURL, URL(string: "https://example.org")!])
        #expect(activity.preparedItems?.count == 2)
    }

    @Test("the UIKit methods still work when called directly, with any items")
    func directCallsStillWork() throws {
        let registry = ActivityRegistry()
        let descriptor = try #require(registry.descriptor(for: .addToReadingList))
        let activity = KindRecordingBuiltIn(descriptor: descriptor, log: CallLog())
        #expect(activity.canPerform(withActivityItems: [Samples.webURL]))
        #expect(!activity.canPerform(withActivityItems: ["text", Samples.textFile]))
        #expect(
            activity.unavailableReason(forActivityItems: ["a", "b", Samples.textFile])
                == "it takes http and https links only, and got text, text file (public.plain-text)")
        #expect(activity.unavailableReason(forActivityItems: [Samples.webURL]) == nil)
    }
}
