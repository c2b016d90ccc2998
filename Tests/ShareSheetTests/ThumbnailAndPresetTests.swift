import Foundation
import ShareSheet
import ShareSheetTesting
import Testing

/// A fake that shows a preview of `size`, and records the thumbnails it was handed.
final class PreviewingActivity: FakeActivity {
    let size: CGSize
    private(set) var thumbnailsAtPrepare: [Image?]?

    init(size: CGSize, log: CallLog) {
        self.size = size
        super.init(type: .testA, log: log)
    }

    override var thumbnailSize: CGSize? { size }

    override func prepare(withActivityItems activityItems: [Any]) {
        thumbnailsAtPrepare = context.thumbnails
        super.prepare(withActivityItems: activityItems)
    }
}

@MainActor
@Suite("Thumbnails after the pick, presets in the interface (SPEC §1.5, §1.4)")
struct ThumbnailAndPresetTests {
    private let typeA = ActivityType.testA.rawValue

    @Test("an activity with a thumbnail size gets each source's thumbnail, asked with the chosen type and its size")
    func thumbnailsAsked() async {
        let log = CallLog()
        let withImage = RecordingItemSource(name: "a", placeholder: "x", log: log) { _ in "item a" }
        withImage.thumbnail = Samples.image
        let without = RecordingItemSource(name: "b", placeholder: "y", log: log) { _ in "item b" }
        let activity = PreviewingActivity(size: CGSize(width: 128, height: 96), log: log)
        let controller = ActivityViewController(
            activityItems: [withImage, "plain", without], applicationActivities: [activity])
        _ = controller.sheet
        log.clear()
        controller.present(with: ScriptedPresenter(pick: .testA))
        _ = await controller.waitForCompletion()
        #expect(
            log.names == [
                "item(a, \(typeA))", "item(b, \(typeA))", "dataType(a, \(typeA))", "dataType(b, \(typeA))",
                "subject(a, \(typeA))", "subject(b, \(typeA))", "thumbnail(a, \(typeA), 128x96)",
                "thumbnail(b, \(typeA), 128x96)", "prepare(\(typeA))", "perform(\(typeA))",
            ])
        let thumbnails = activity.thumbnailsAtPrepare
        #expect(thumbnails?.count == 3)
        #expect(thumbnails?[0]?.encodedData == Samples.image.encodedData)
        #expect(thumbnails?[1] == nil)
        #expect(thumbnails?[2] == nil)
    }

    @Test("an activity without a thumbnail size never causes a thumbnail to be asked")
    func noSizeNoThumbnails() async {
        let log = CallLog()
        let source = RecordingItemSource(name: "a", placeholder: "x", log: log) { _ in "item a" }
        source.thumbnail = Samples.image
        let fake = FakeActivity(type: .testA, log: log)
        #expect(fake.thumbnailSize == nil)
        let controller = ActivityViewController(activityItems: [source], applicationActivities: [fake])
        controller.present(with: ScriptedPresenter(pick: .testA))
        _ = await controller.waitForCompletion()
        #expect(log.entries(startingWith: "thumbnail").isEmpty)
        #expect(fake.context.thumbnails.isEmpty)
    }

    private func mailLikeActivity(log: CallLog) -> FakeActivity {
        let fake = FakeActivity(type: .testA, log: log)
        fake.interface = ActivityInterface(
            title: "New Message",
            fields: [
                InterfaceField(id: "to", label: "To", kind: .emailAddresses, isRequired: true),
                InterfaceField(id: "subject", label: "Subject", kind: .text),
                InterfaceField(id: "body", label: "Body", kind: .multilineText),
            ]
        ) { _ in }
        return fake
    }

    @Test("the controller fills preset fields before a presenter sees the interface")
    func presetsReachARecordingPresenter() async throws {
        let log = CallLog()
        let fake = mailLikeActivity(log: log)
        let controller = ActivityViewController(activityItems: ["x"], applicationActivities: [fake])
        controller.presetValues = ["to": .text("a@example.com, b@example.org"), "subject": .text("Dinner")]
        let presenter = RecordingPresenter(name: "p", log: log, pick: .testA)
        controller.present(with: presenter)
        let shown = await waitUntil { !presenter.shownInterfaces.isEmpty }
        try #require(shown)
        let fields = try #require(presenter.shownInterfaces.first?.fields)
        #expect(fields.map(\.defaultValue) == [.list(["a@example.com", "b@example.org"]), .text("Dinner"), nil])
        #expect(fields.map(\.isPreset) == [true, true, false])
        controller.cancelInterface()
        _ = await controller.waitForCompletion()
    }

    @Test("ScriptedPresenter takes presets from the interface, and its own values win")
    func presetsReachScriptedPresenter() async throws {
        let fake = mailLikeActivity(log: CallLog())
        let controller = ActivityViewController(activityItems: ["x"], applicationActivities: [fake])
        controller.presetValues = ["to": .text("a@example.com"), "subject": .text("Dinner")]
        let presenter = ScriptedPresenter(pick: .testA, values: ["subject": .text("Lunch")])
        controller.present(with: presenter)
        let outcome = await controller.waitForCompletion()
        #expect(outcome.completed)
        let fields = try #require(presenter.shownInterface?.fields)
        #expect(fields.first { $0.id == "to" }?.defaultValue == .list(["a@example.com"]))
        #expect(fields.first { $0.id == "subject" }?.defaultValue == .text("Dinner"))
        #expect(fake.submittedValues?["to"] == .list(["a@example.com"]))
        #expect(fake.submittedValues?["subject"] == .text("Lunch"))
        #expect(fake.context.presetValues["subject"] == .text("Dinner"))
    }
}
