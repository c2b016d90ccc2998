import Foundation
import LocalTestSupport
import ShareSheet
import ShareSheetSystem
import Testing

@testable import Social

/// Seed 000's item source: "Like this!" on Facebook, "Retweet this!" on Twitter.
@MainActor
private final class SocialMessageSource: ActivityItemSource {
    func activityViewControllerPlaceholderItem(_ activityViewController: ActivityViewController) -> Any { "" }

    func activityViewController(
        _ activityViewController: ActivityViewController, itemForActivityType activityType: ActivityType?
    ) -> Any? {
        if activityType == .postToFacebook { return "Like this!" }
        if activityType == .postToTwitter { return "Retweet this!" }
        return nil
    }
}

/// The posting activities in the sheet: offered or explained, the compose interface, the text
/// per service from the item sources, the posted URL in `returnedItems`.
@MainActor
@Suite("Posting activities in the sheet")
struct ActivityTests {
    private func registry(_ sandbox: Sandbox, configuration: Configuration = .empty, opened: Locked<[URL]>? = nil)
        -> ActivityRegistry
    {
        let registry = ActivityRegistry()
        registry.add(.mastodon)
        let accounts = sandbox.accounts
        for service in SocialService.allCases {
            let descriptor = registry.descriptor(for: service.activityType)!
            registry.install(service.activityType) {
                SocialActivity(service: service, descriptor: descriptor) {
                    SocialComposer(
                        service: service, configuration: configuration, accounts: accounts,
                        openWebPage: { url in opened?.withLock { $0.append(url) } })
                }
            }
        }
        return registry
    }

    @Test("Mastodon is ShareSheet's own built-in in the share row; Tencent Weibo stays retired")
    func descriptors() throws {
        let registry = ActivityRegistry()
        SocialActivities.install(into: registry)
        let mastodon = try #require(registry.descriptor(named: "mastodon"))
        #expect(mastodon.type.rawValue == "org.sharesheet.activity.postToMastodon")
        #expect(mastodon.category == .share)
        for service in SocialService.allCases { #expect(registry.isInstalled(service.activityType)) }
        #expect(!registry.isInstalled(.postToTencentWeibo))
        let tencent = registry.makeActivities().first { $0.activityType == .postToTencentWeibo }
        #expect(tencent?.unavailableReason(forActivityItems: ["hi"]) == "the service closed in 2020")
    }

    @Test("without accounts: X, Weibo, Mastodon offered for text; Flickr and Vimeo explain they need one")
    func offeredWithoutAccounts() throws {
        let sandbox = try Sandbox()
        let video = try sandbox.file("clip.mp4", Data("not really a video".utf8))
        let controller = ActivityViewController(
            activityItems: ["Hello", video], applicationActivities: nil, registry: registry(sandbox))
        let offered = controller.sheet.shareRow.compactMap(\.activityType)
        #expect(!offered.contains(.postToVimeo))
        let vimeo = try #require(controller.sheet.unavailable.first { $0.activity.activityType == .postToVimeo })
        // The fact and the account to add; the command words it (SPEC §11).
        #expect(vimeo.reason == "Vimeo has no web share page, so it needs an account")
        #expect(
            controller.sheet.unavailability(of: vimeo.activity)
                == Unavailability(vimeo.reason, setting: ShareError.Setting(group: "accounts", "vimeo"), fix: .addAccount))
        let textOnly = ActivityViewController(activityItems: ["Hello"], applicationActivities: nil, registry: registry(sandbox))
        let textOffered = Set(textOnly.sheet.shareRow.compactMap(\.activityType))
        #expect(textOffered.isSuperset(of: [.postToTwitter, .postToWeibo, .postToMastodon]))
        #expect(!textOffered.contains(.postToFacebook))  // its share page takes links only
    }

    @Test("the text is prefilled per service from the item sources (Retweet this! / Like this!)")
    func prefilledPerService() async throws {
        let sandbox = try Sandbox()
        let opened = Locked<[URL]>([])
        for (type, expected) in [(ActivityType.postToTwitter, "Retweet this!"), (.postToFacebook, "Like this!")] {
            let controller = ActivityViewController(
                activityItems: [SocialMessageSource(), URL(string: "https://example.com/recipe")!], applicationActivities: nil,
                registry: registry(sandbox, opened: opened))
            let presenter = ScriptedPresenter(pick: type)
            controller.present(with: presenter)
            let outcome = await controller.waitForCompletion()
            #expect(outcome.completed, "\(type): \(String(describing: outcome.error))")
            let field = try #require(presenter.shownInterface?.fields.first)
            #expect(field.defaultValue == .text("\(expected) https://example.com/recipe"))
            #expect(presenter.shownInterface?.message?.contains("no account: opens") == true)
        }
        let pages = opened.withLock { $0 }.map(\.absoluteString)
        #expect(pages == [
            "https://x.com/intent/post?text=Retweet%20this%21&url=https%3A%2F%2Fexample.com%2Frecipe",
            "https://www.facebook.com/sharer/sharer.php?u=https%3A%2F%2Fexample.com%2Frecipe",
        ])
    }

    @Test("the interface shows the count, the attachments and the account; over the limit is refused")
    func composeInterface() async throws {
        let sandbox = try Sandbox()
        try sandbox.accounts.save("token", for: .mastodon)
        let image = try sandbox.file("photo.png", tinyPNG)
        let controller = ActivityViewController(
            activityItems: ["Hi https://example.com/a/long/link/indeed", image], applicationActivities: nil,
            registry: registry(sandbox, configuration: Configuration(["mastodon": ["instance": "http://127.0.0.1:9"]])))
        let presenter = ScriptedPresenter(pick: .postToMastodon, values: ["text": .text(String(repeating: "a", count: 501))])
        controller.present(with: presenter)
        let outcome = await controller.waitForCompletion()
        let interface = try #require(presenter.shownInterface)
        let message = interface.message ?? ""
        #expect(message.contains("posting with the mastodon account in the tokens file"))
        #expect(message.contains("attachments: photo.png (image/png)"))
        #expect(message.contains("26/500 characters as Mastodon counts them"))
        #expect(!outcome.completed)
        #expect((outcome.error as? ShareError)?.message.contains("Mastodon takes 500") == true)
    }

    @Test("through the sheet the posted status URL comes back in returnedItems")
    func returnedItems() async throws {
        let server = try await MastodonMock()
        defer { server.stop() }
        let sandbox = try Sandbox()
        try sandbox.accounts.save(MastodonMock.token, for: .mastodon)
        let controller = ActivityViewController(
            activityItems: ["Through the sheet"], applicationActivities: nil,
            registry: registry(sandbox, configuration: Configuration(["mastodon": ["instance": server.baseURL.absoluteString]])))
        controller.present(with: ScriptedPresenter(pick: .postToMastodon))
        let outcome = await controller.waitForCompletion()
        #expect(outcome.completed, "\(String(describing: outcome.error))")
        let statuses = try await server.statuses()
        #expect(statuses.count == 1)
        #expect((outcome.returnedItems as? [URL])?.map(\.absoluteString) == (statuses.first?["url"] as? String).map { [$0] })
    }
}
