import Foundation
import ShareSheetTesting
import ShareSheetUIKit
import Testing

/// Seed 002: `PhotoActivityItemProvider` against a real HTTP server on 127.0.0.1.
@Suite("Seed 002: a remote photo downloaded only after the pick")
@MainActor
struct RemotePhotoProviderTests {
    @Test("building and showing the sheet downloads nothing; the pick downloads the photo once")
    func downloadsOnlyAfterThePick() async throws {
        let server = try LoopbackHTTPServer(serving: samplePNG)
        defer { server.stop() }
        let (registry, backends) = makeInMemoryRegistry()
        let provider = PhotoActivityItemProvider(server.url("photos/cat.png"))
        let controller = UIActivityViewController(
            activityItems: [provider], applicationActivities: nil, registry: registry)

        // The empty placeholder image is enough for the sheet to offer what takes images.
        let offered = offeredTypes(controller.sheet)
        #expect(offered.action.contains(.saveToCameraRoll))
        #expect(offered.action.contains(.assignToContact))
        #expect(offered.share.contains(.postToFlickr))
        #expect(!offered.action.contains(.addToReadingList))
        #expect(server.requests.isEmpty)

        controller.present()
        #expect(controller.phase == .showingSheet)
        #expect(server.requests.isEmpty, "the sheet is shown, nothing is picked yet")

        #expect(controller.select(.saveToCameraRoll))
        let outcome = await controller.waitForCompletion()

        #expect(outcome.activityType == .saveToCameraRoll)
        #expect(outcome.completed)
        #expect(outcome.error == nil)
        #expect(server.requests == ["/photos/cat.png"])
        let received = try #require(backends.received[.saveToCameraRoll])
        #expect(received.count == 1)
        let image = try #require(received.first?.first as? UIImage)
        #expect(received.first?.count == 1)
        #expect(image.encodedData == samplePNG)
        #expect(image.type == .png)
        #expect(image.size == CGSize(width: 3, height: 2))
    }

    @Test("presenting the same sheet again reuses the photo instead of downloading it again")
    func secondPresentationReusesTheDownload() async throws {
        let server = try LoopbackHTTPServer(serving: samplePNG)
        defer { server.stop() }
        let (registry, backends) = makeInMemoryRegistry()
        let provider = PhotoActivityItemProvider(server.url("photos/again.png"))
        let controller = UIActivityViewController(
            activityItems: [provider], applicationActivities: nil, registry: registry)

        controller.present(with: ScriptedPresenter(pick: .assignToContact))
        let first = await controller.waitForCompletion()
        controller.present(with: ScriptedPresenter(pick: .assignToContact))
        let second = await controller.waitForCompletion()

        #expect(first.completed && second.completed)
        #expect(server.requests == ["/photos/again.png"])
        let received = backends.received[.assignToContact] ?? []
        #expect(received.count == 2)
        #expect(received.allSatisfy { ($0.first as? UIImage)?.encodedData == samplePNG })
    }

    @Test(
        "every other activity gets the downloaded UIImage",
        arguments: [ActivityType.postToTwitter, .postToFlickr, .copyToPasteboard, .airDrop])
    func otherActivitiesGetTheImage(type: ActivityType) async throws {
        let server = try LoopbackHTTPServer(serving: samplePNG)
        defer { server.stop() }
        let (registry, backends) = makeInMemoryRegistry()
        let provider = PhotoActivityItemProvider(server.url("photos/cat.png"))
        let controller = UIActivityViewController(
            activityItems: [provider], applicationActivities: nil, registry: registry)

        controller.present(with: ScriptedPresenter(pick: type))
        let outcome = await controller.waitForCompletion()

        #expect(outcome.activityType == type)
        #expect(outcome.completed)
        #expect(server.requests == ["/photos/cat.png"])
        let items = try #require(backends.received[type]?.first)
        #expect(items.count == 1)
        #expect((items.first as? UIImage)?.encodedData == samplePNG)
    }

    @Test(
        "Mail and Message get the text \"The photo link is …\" and nothing is downloaded",
        arguments: [ActivityType.mail, .message])
    func mailAndMessageGetTheLink(type: ActivityType) async throws {
        let server = try LoopbackHTTPServer(serving: samplePNG)
        defer { server.stop() }
        let (registry, backends) = makeInMemoryRegistry()
        let photoURL = server.url("photos/cat.png")
        // The article's second example adds a line of text next to the provider.
        let controller = UIActivityViewController(
            activityItems: [PhotoActivityItemProvider(photoURL), "Whitesmith!"], applicationActivities: nil,
            registry: registry)

        controller.present(with: ScriptedPresenter(pick: type))
        let outcome = await controller.waitForCompletion()

        #expect(outcome.activityType == type)
        #expect(outcome.completed)
        let items = try #require(backends.received[type]?.first)
        #expect(items.map { $0 as? String } == ["The photo link is \(photoURL.absoluteString).", "Whitesmith!"])
        #expect(server.requests.isEmpty)
    }

    @Test("with the provider alone, Mail gets just the link text")
    func mailWithTheProviderAlone() async throws {
        let server = try LoopbackHTTPServer(serving: samplePNG)
        defer { server.stop() }
        let (registry, backends) = makeInMemoryRegistry()
        let photoURL = server.url("photos/cat.png")
        let controller = UIActivityViewController(
            activityItems: [PhotoActivityItemProvider(photoURL)], applicationActivities: nil, registry: registry)

        controller.present(with: ScriptedPresenter(pick: .mail))
        let outcome = await controller.waitForCompletion()

        #expect(outcome.completed)
        let items = try #require(backends.received[.mail]?.first)
        #expect(items.map { $0 as? String } == ["The photo link is \(photoURL.absoluteString)."])
        #expect(server.requests.isEmpty)
    }

    @Test("a failed download falls back to super.item, which leaves the item out: no blank image is shared")
    func failedDownloadSharesNoBlankImage() async throws {
        let server = try LoopbackHTTPServer(serving: samplePNG)
        defer { server.stop() }
        let (registry, backends) = makeInMemoryRegistry()
        // The server answers 404 under /missing/, so no image can be decoded.
        let provider = PhotoActivityItemProvider(server.url("missing/cat.png"))
        let controller = UIActivityViewController(
            activityItems: [provider, "Whitesmith!"], applicationActivities: nil, registry: registry)

        controller.present(with: ScriptedPresenter(pick: .copyToPasteboard))
        let outcome = await controller.waitForCompletion()

        #expect(server.requests == ["/missing/cat.png"])
        #expect(outcome.activityType == .copyToPasteboard)
        let items = try #require(backends.received[.copyToPasteboard]?.first)
        #expect(items.map { $0 as? String } == ["Whitesmith!"])
        #expect(!items.contains { $0 is UIImage })
    }

    @Test("dismissing during the download wakes the provider through cancel(); nothing is shared")
    func dismissDuringTheDownload() async throws {
        let server = try LoopbackHTTPServer(serving: samplePNG)
        defer {
            server.release()
            server.stop()
        }
        let (registry, backends) = makeInMemoryRegistry()
        // The server holds answers under /slow/ until released.
        let provider = PhotoActivityItemProvider(server.url("slow/cat.png"))
        let controller = UIActivityViewController(
            activityItems: [provider], applicationActivities: nil, registry: registry)

        controller.present(with: ScriptedPresenter(pick: .saveToCameraRoll))
        let requested = await eventually { server.requests == ["/slow/cat.png"] }
        try #require(requested, "the provider never asked the server for the photo")

        controller.dismiss()
        await controller.waitForProvidersToStop()

        // The answer is still held by the server, so only cancel() can have ended the wait.
        #expect(server.answered.isEmpty)
        #expect(provider.isCancelled)
        let outcome = await controller.waitForCompletion()
        #expect(outcome.activityType == nil)
        #expect(!outcome.completed)
        #expect(outcome.error == nil)
        #expect(backends.received.isEmpty)
    }
}
