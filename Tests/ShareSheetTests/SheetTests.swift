import Foundation
import ShareSheet
import ShareSheetTesting
import Testing
import UniformTypes

@MainActor
@Suite("What the sheet offers")
struct SheetTests {
    @Test("share row before action row; application activities first in their row")
    func rows() {
        let (registry, _) = inMemoryRegistry()
        let appShare = FakeActivity(type: .testA, category: .share)
        let appAction = FakeActivity(type: .testB, category: .action)
        let controller = ActivityViewController(
            activityItems: ["hello", Samples.webURL], applicationActivities: [appShare, appAction], registry: registry)
        let sheet = controller.sheet
        #expect(sheet.shareRow.first?.activityType == .testA)
        #expect(sheet.actionRow.first?.activityType == .testB)
        #expect(controller.activities.map(\.activityType) == (sheet.shareRow + sheet.actionRow).map(\.activityType))
        let shareTypes = sheet.shareRow.compactMap(\.activityType)
        #expect(shareTypes == [.testA, .postToFacebook, .postToTwitter, .postToWeibo, .message, .mail])
        let actionTypes = sheet.actionRow.compactMap(\.activityType)
        #expect(actionTypes == [.testB, .print, .copyToPasteboard, .addToReadingList, .airDrop])
        // Tencent Weibo is retired even with a backend installed.
        #expect(sheet.unavailable.contains { $0.activity.activityType == .postToTencentWeibo && $0.reason == "the service closed in 2020" })
    }

    @Test("excludedActivityTypes removes built-in and application activities")
    func exclusions() {
        let (registry, _) = inMemoryRegistry()
        let controller = ActivityViewController(
            activityItems: ["hello"], applicationActivities: [FakeActivity(type: .testA)], registry: registry)
        controller.excludedActivityTypes = [.mail, .testA]
        let offered = controller.activities.compactMap(\.activityType)
        #expect(!offered.contains(.mail))
        #expect(!offered.contains(.testA))
        #expect(offered.contains(.message))
        #expect(controller.sheet.unavailable.contains { $0.activity.activityType == .mail && $0.reason == "excluded by the application" })
    }

    @Test("without backends, every built-in is listed as unavailable with the reason")
    func noBackends() {
        let controller = ActivityViewController(
            activityItems: ["hello"], applicationActivities: nil, registry: ActivityRegistry())
        #expect(controller.activities.isEmpty)
        #expect(controller.sheet.unavailable.count == BuiltInActivityDescriptor.catalog.count)
        let reasons = Set(controller.sheet.unavailable.map(\.reason))
        #expect(reasons == [ActivityRegistry.noBackendReason, "the service closed in 2020"])
    }

    @Test("recently used activities come first in their row")
    func history() {
        final class Recent: ActivityHistory {
            var recentTypes: [ActivityType] = [.mail, .airDrop]
            func record(_ type: ActivityType) { recentTypes.insert(type, at: 0) }
        }
        let (registry, _) = inMemoryRegistry()
        let controller = ActivityViewController(activityItems: ["hello"], applicationActivities: nil, registry: registry)
        controller.history = Recent()
        #expect(controller.sheet.shareRow.first?.activityType == .mail)
        #expect(controller.sheet.actionRow.first?.activityType == .airDrop)
        #expect(controller.sheet.actionRow.dropFirst().first?.activityType == .print)
    }

    @Test("an activity is offered for mixed items when one fits, and receives only what it accepts")
    func onlyAcceptedItemsReachBuiltIns() async {
        let (registry, backends) = inMemoryRegistry()
        let controller = ActivityViewController(
            activityItems: ["hello", Samples.webURL, Samples.mailtoURL], applicationActivities: nil, registry: registry)
        #expect(controller.activities.contains { $0.activityType == .addToReadingList })
        controller.present(with: ScriptedPresenter(pick: .addToReadingList))
        _ = await controller.waitForCompletion()
        #expect(backends.received[.addToReadingList]?.first?.compactMap { $0 as? URL } == [Samples.webURL])
        #expect(backends.received[.addToReadingList]?.first?.count == 1)
    }
}

@Suite("SPEC §1.7: which items each built-in accepts")
struct AcceptanceTableTests {
    private func accepts(_ type: ActivityType, _ item: Any) -> Bool {
        BuiltInActivityDescriptor.catalog.first { $0.type == type }!.acceptance.accepts(item: item)
    }

    /// Every ✓ cell of the table, plus what Apple's documentation adds.
    static var acceptedCells: [(ActivityType, String, Any)] { [
        (.postToFacebook, "String", Samples.string), (.postToFacebook, "Attributed", Samples.attributed),
        (.postToFacebook, "URL", Samples.webURL), (.postToFacebook, "Image", Samples.image),
        (.postToTwitter, "String", Samples.string), (.postToTwitter, "Attributed", Samples.attributed),
        (.postToTwitter, "URL", Samples.webURL), (.postToTwitter, "Image", Samples.image),
        (.postToWeibo, "String", Samples.string), (.postToWeibo, "Attributed", Samples.attributed),
        (.postToWeibo, "URL", Samples.webURL), (.postToWeibo, "Image", Samples.image),
        (.postToWeibo, "Asset", Samples.videoAsset),
        (.message, "String", Samples.string), (.message, "Attributed", Samples.attributed),
        (.message, "URL", Samples.webURL), (.message, "Data (typed)", Samples.typedImageData),
        (.message, "Asset", Samples.photoAsset), (.message, "sms: URL", Samples.smsURL),
        (.message, "image (MMS, Apple docs)", Samples.image),
        (.mail, "String", Samples.string), (.mail, "Attributed", Samples.attributed), (.mail, "URL", Samples.webURL),
        (.mail, "image", Samples.image), (.mail, "file URL", Samples.pdfFile), (.mail, "typed Data", Samples.typedImageData),
        (.mail, "mailto: URL", Samples.mailtoURL),
        (.print, "Data", Samples.pngData), (.print, "Image", Samples.image), (.print, "print info", PrintInfo()),
        (.print, "formatter", PrintFormatter()), (.print, "page renderer", PrintPageRenderer()),
        (.print, "local file URL", Samples.pdfFile), (.print, "String (issue #6)", Samples.string),
        (.print, "Attributed (issue #6)", Samples.attributed),
        (.copyToPasteboard, "String", Samples.string), (.copyToPasteboard, "URL", Samples.webURL),
        (.copyToPasteboard, "Image", Samples.image), (.copyToPasteboard, "color", Samples.color),
        (.copyToPasteboard, "dictionary", Samples.dictionary),
        (.assignToContact, "Image", Samples.image),
        (.saveToCameraRoll, "URL (image file)", Samples.imageFile), (.saveToCameraRoll, "URL (video file)", Samples.videoFile),
        (.saveToCameraRoll, "Image", Samples.image),
        (.addToReadingList, "URL", Samples.webURL),
        (.postToFlickr, "URL", Samples.imageFile), (.postToFlickr, "Data", Samples.pngData),
        (.postToFlickr, "Image", Samples.image), (.postToFlickr, "Asset", Samples.photoAsset),
        (.postToVimeo, "URL", Samples.videoFile), (.postToVimeo, "Data", Samples.typedVideoData),
        (.postToVimeo, "Asset", Samples.videoAsset),
        (.postToTencentWeibo, "String", Samples.string), (.postToTencentWeibo, "Attributed", Samples.attributed),
        (.postToTencentWeibo, "URL", Samples.webURL), (.postToTencentWeibo, "Image", Samples.image),
        (.postToTencentWeibo, "Asset", Samples.videoAsset),
        (.airDrop, "String", Samples.string), (.airDrop, "Attributed", Samples.attributed), (.airDrop, "URL", Samples.webURL),
        (.airDrop, "Image", Samples.image), (.airDrop, "Asset", Samples.videoAsset),
        (.airDrop, "array", [Samples.string, Samples.webURL] as [Any]), (.airDrop, "dictionary", Samples.dictionary),
    ] }

    @Test("every ✓ cell is accepted")
    func acceptedCells() {
        for (type, column, item) in Self.acceptedCells {
            #expect(accepts(type, item), "\(type.rawValue) should accept \(column)")
        }
    }

    /// The "only" rules, and the blank cells they imply.
    static var rejectedCells: [(ActivityType, String, Any)] { [
        (.addToReadingList, "mailto: URL", Samples.mailtoURL), (.addToReadingList, "file URL", Samples.pdfFile),
        (.addToReadingList, "String", Samples.string),
        (.saveToCameraRoll, "PDF file", Samples.pdfFile), (.saveToCameraRoll, "String", Samples.string),
        (.saveToCameraRoll, "web URL", Samples.webURL),
        (.assignToContact, "String", Samples.string), (.assignToContact, "video file", Samples.videoFile),
        (.assignToContact, "web URL", Samples.webURL),
        (.postToVimeo, "image file", Samples.imageFile), (.postToVimeo, "image", Samples.image),
        (.postToVimeo, "String", Samples.string),
        (.postToFlickr, "PDF file", Samples.pdfFile), (.postToFlickr, "String", Samples.string),
        (.message, "untyped Data", Samples.pngData), (.message, "tel: URL", Samples.telURL),
        (.mail, "untyped Data", Samples.pngData), (.mail, "color", Samples.color),
        (.print, "zip file", Samples.zipFile), (.print, "web URL", Samples.webURL),
        (.copyToPasteboard, "Attributed", Samples.attributed),
        (.postToFacebook, "Asset", Samples.videoAsset), (.postToTwitter, "Data", Samples.pngData),
        (.airDrop, "untyped Data", Samples.pngData), (.airDrop, "color", Samples.color),
    ] }

    @Test("the only-rules and blank cells reject what they name")
    func rejectedCells() {
        for (type, column, item) in Self.rejectedCells {
            #expect(!accepts(type, item), "\(type.rawValue) should reject \(column)")
        }
    }
}

@Suite("Items")
struct ItemTests {
    @Test("an image knows its type and pixel size from its header")
    func imageHeader() {
        let image = Image(data: Samples.png(width: 640, height: 480))
        #expect(image?.type == .png)
        #expect(image?.size == CGSize(width: 640, height: 480))
        #expect(Image(data: Data("not an image".utf8)) == nil)
        #expect(Image().isEmpty)
    }

    @Test("URLs are classified as web, file (by type) or scheme links")
    func urlKinds() {
        #expect(ItemKind.of(Samples.webURL) == .webURL)
        #expect(ItemKind.of(Samples.mailtoURL) == .schemeURL("mailto"))
        #expect(ItemKind.of(Samples.imageFile) == .fileURL(.jpeg))
        #expect(ItemKind.of(Samples.pngData) == .data(.png, declared: false))
        #expect(ItemKind.of(Samples.typedImageData) == .data(.png, declared: true))
        #expect(ItemKind.of(["a", "b"]) == .array([.string, .string]))
    }

    @Test("a DataItem takes its type from its name, then its content")
    func dataItem() {
        #expect(DataItem(data: Samples.pngData, filename: "dot").typeIdentifier == "public.png")
        #expect(DataItem(data: Data("{}".utf8), filename: "a.json").typeIdentifier == "public.json")
        #expect(DataItem(data: Data(), filename: "x", typeIdentifier: "com.adobe.pdf").type == .pdf)
    }

    @Test("e-mail addresses follow RFC 5322's addr-spec")
    func emailAddresses() {
        for valid in ["a@example.com", "first.last+tag@sub.example.org", "\"odd name\"@example.com", "Ann <ann@example.com>",
            "\"say \\\"hi\\\"\"@example.com",
        ] {
            #expect(EmailAddress.isValid(valid), "\(valid)")
        }
        for invalid in ["", "plain", "a@", "@example.com", "a..b@example.com", "a@-bad.com", "a b@example.com",
            // An unescaped quote ends the quoted string early (found by fuzz-mime-headers).
            "\"_reaIo\"@eIo\"@exam", "\"a\\\"@example.com",
        ] {
            #expect(!EmailAddress.isValid(invalid), "\(invalid)")
        }
    }
}
