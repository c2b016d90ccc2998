import Foundation
import LocalTestSupport
import ShareSheetTesting
import ShareSheetUIKit
import Testing

/// Seed 000: the Mustachify activity.
@Suite("Seed 000: the Mustachify activity")
@MainActor
struct MustachifyTests {
    @Test(
        "canPerform: only web URLs ending in jpg or png, in any case",
        arguments: [
            ("https://example.com/cat.jpg", true),
            ("http://example.com/photos/cat.png", true),
            ("https://example.com/CAT.JPG", true),
            ("https://example.com/cat.Png?size=large", true),
            ("https://example.com/cat.gif", false),
            ("https://example.com/cat.jpeg", false),
            ("https://example.com/cat", false),
            ("file:///tmp/cat.jpg", false),
            ("file:///tmp/cat.png", false),
        ])
    func canPerform(address: String, expected: Bool) throws {
        let url = try #require(URL(string: address))
        #expect(MustachifyActivity().canPerform(withActivityItems: [url]) == expected)
    }

    @Test("canPerform looks at URLs only, and at every item")
    func canPerformLooksAtURLsOnly() throws {
        let activity = MustachifyActivity()
        let jpg = try #require(URL(string: "https://example.com/cat.jpg"))
        #expect(!activity.canPerform(withActivityItems: ["https://example.com/cat.jpg"]))
        #expect(!activity.canPerform(withActivityItems: []))
        #expect(activity.canPerform(withActivityItems: ["text", URL(fileURLWithPath: "/tmp/a.png"), jpg]))
    }

    @Test("the article's type, title and row")
    func identity() {
        let activity = MustachifyActivity()
        #expect(activity.activityType?.rawValue == "com.nshipster.activity.Mustachify")
        #expect(activity.activityTitle == "Mustachify")
        #expect(MustachifyActivity.activityCategory == .action)
    }

    @Test("in a sheet: in the action row for a web image link; hidden for an image file and for a GIF link")
    func offeredInTheSheet() throws {
        let folder = try TemporaryFolder("seed-tests")
        defer { folder.remove() }
        let fileJPG = try folder.write("cat.jpg", Data([0xFF, 0xD8, 0xFF, 0xE0]))
        let cases: [(item: URL, offered: Bool)] = [
            (try #require(URL(string: "https://example.com/cat.jpg")), true),
            (fileJPG, false),
            (try #require(URL(string: "https://example.com/cat.gif")), false),
        ]
        for (item, shouldBeOffered) in cases {
            let mustachify = MustachifyActivity()
            let (registry, _) = makeInMemoryRegistry()
            let controller = UIActivityViewController(
                activityItems: [item], applicationActivities: [mustachify], registry: registry)
            let sheet = controller.sheet
            #expect(sheet.actionRow.contains { $0 === mustachify } == shouldBeOffered, "\(item)")
            #expect(!sheet.shareRow.contains { $0 === mustachify })
            #expect(sheet.unavailable.contains { $0.activity === mustachify } == !shouldBeOffered, "\(item)")
        }
    }

    @Test("the pick builds the mustachify.me address from the first match and shows it until Done")
    func pickShowsTheMustachifiedImage() async throws {
        let mustachify = MustachifyActivity()
        mustachify.mustacheType = .handlebar
        let items: [Any] = [
            try #require(URL(string: "https://example.com/a.gif")),
            "Look at this",
            try #require(URL(string: "https://example.com/b.png")),
            try #require(URL(string: "https://example.com/c.jpg")),
        ]
        let controller = UIActivityViewController(
            activityItems: items, applicationActivities: [mustachify], registry: ActivityRegistry())
        var handled: [(UIActivity.ActivityType?, Bool, [Any]?)] = []
        controller.completionWithItemsHandler = { type, completed, returned, _ in
            handled.append((type, completed, returned))
        }
        let presenter = ScriptedPresenter(pick: .mustachify)

        controller.present(with: presenter)
        let outcome = await controller.waitForCompletion()

        let expected = try #require(URL(string: "http://mustachify.me/5?src=https://example.com/b.png"))
        #expect(mustachify.imageURL == expected)
        let interface = try #require(presenter.shownInterface)
        #expect(interface.title == "Mustachify")
        #expect(interface.message == expected.absoluteString)
        #expect(interface.fields.isEmpty)
        #expect(outcome.activityType == .mustachify)
        #expect(outcome.completed)
        #expect(outcome.returnedItems?.map { $0 as? URL } == [expected])
        #expect(handled.count == 1)
        #expect(handled.first?.0 == .mustachify)
        #expect(handled.first?.1 == true)
    }

    @Test("the English mustache is number 0, and cancelling the shown image ends the activity uncompleted")
    func cancelTheShownImage() async throws {
        let mustachify = MustachifyActivity()
        let controller = UIActivityViewController(
            activityItems: [try #require(URL(string: "https://example.com/cat.JPG"))],
            applicationActivities: [mustachify], registry: ActivityRegistry())

        controller.present()
        #expect(controller.select(.mustachify))
        let shown = await eventually { controller.phase == .showingInterface(.mustachify) }
        try #require(shown, "the interface was never shown (phase \(controller.phase))")
        #expect(mustachify.imageURL?.absoluteString == "http://mustachify.me/0?src=https://example.com/cat.JPG")
        controller.cancelInterface()
        let outcome = await controller.waitForCompletion()

        #expect(outcome.activityType == .mustachify)
        #expect(!outcome.completed)
        #expect(outcome.returnedItems == nil)
    }
}

/// Seed 000: an item source that words its message per service.
@Suite("Seed 000: an item source worded per service")
@MainActor
struct SocialMessageItemSourceTests {
    static let link = URL(string: "https://nshipster.com/uiactivityviewcontroller/")!

    @Test(
        "Facebook gets \"Like this!\" and Twitter \"Retweet this!\", next to the link",
        arguments: [(ActivityType.postToFacebook, "Like this!"), (.postToTwitter, "Retweet this!")])
    func wordedPerService(type: ActivityType, message: String) async throws {
        let (registry, backends) = makeInMemoryRegistry()
        let controller = UIActivityViewController(
            activityItems: [SocialMessageItemSource(), Self.link], applicationActivities: nil, registry: registry)

        controller.present(with: ScriptedPresenter(pick: type))
        let outcome = await controller.waitForCompletion()

        #expect(outcome.activityType == type)
        #expect(outcome.completed)
        let received = try #require(backends.received[type])
        #expect(received.count == 1)
        let items = try #require(received.first)
        #expect(items.count == 2)
        #expect(items.first as? String == message)
        #expect(items.last as? URL == Self.link)
    }

    @Test(
        "elsewhere the source answers nil and the item is left out",
        arguments: [ActivityType.mail, .message, .copyToPasteboard, .airDrop, .addToReadingList])
    func droppedElsewhere(type: ActivityType) async throws {
        let (registry, backends) = makeInMemoryRegistry()
        let controller = UIActivityViewController(
            activityItems: [SocialMessageItemSource(), Self.link], applicationActivities: nil, registry: registry)

        controller.present(with: ScriptedPresenter(pick: type))
        let outcome = await controller.waitForCompletion()

        #expect(outcome.activityType == type)
        #expect(outcome.completed)
        let items = try #require(backends.received[type]?.first)
        #expect(items.map { $0 as? URL } == [Self.link])
        #expect(backends.received.count == 1)
    }

    @Test("its text placeholder is what the sheet sees: text services are offered for the source alone")
    func placeholderIsText() {
        let (registry, _) = makeInMemoryRegistry()
        let controller = UIActivityViewController(
            activityItems: [SocialMessageItemSource()], applicationActivities: nil, registry: registry)
        let sheet = controller.sheet
        let offered = offeredTypes(sheet)

        #expect(sheet.itemKinds == [.string])
        #expect(offered.share.contains(.postToFacebook))
        #expect(offered.share.contains(.postToTwitter))
        #expect(offered.share.contains(.mail))
        #expect(!offered.action.contains(.saveToCameraRoll))
        #expect(!offered.action.contains(.addToReadingList))
    }
}
