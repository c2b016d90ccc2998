import Foundation
import LocalTestSupport
import ShareSheet
import ShareSheetSystem
import Testing

@testable import Social

/// What the posting activities say happened: posted through the API, or the share page opened
/// because there is no account (a fallback, said in words with the command that changes it).
@MainActor
@Suite("Posting: disposition, location and fallback")
struct PostingDispositionTests {
    /// A registry for the sandbox's host environment; with `opened`, every composer records the
    /// share pages it would open instead of starting a browser.
    private func registry(_ sandbox: Sandbox, opened: Locked<[URL]>? = nil) -> ActivityRegistry {
        let registry = ActivityRegistry(environment: HostEnvironment(variables: sandbox.environment))
        registry.add(.mastodon)
        let accounts = sandbox.accounts
        for service in SocialService.allCases {
            let descriptor = registry.descriptor(for: service.activityType)!
            if let opened {
                registry.install(service.activityType) {
                    SocialActivity(service: service, descriptor: descriptor) {
                        SocialComposer(
                            service: service, configuration: .empty, accounts: accounts,
                            openWebPage: { url in opened.withLock { $0.append(url) } })
                    }
                }
            } else {
                registry.install(service.activityType) { SocialActivity(service: service, descriptor: descriptor) }
            }
        }
        return registry
    }

    @Test(
        "without an account the share page opens, and the fallback names the account command",
        arguments: [SocialService.twitter, .facebook, .weibo, .mastodon])
    func webPageFallback(service: SocialService) async throws {
        let sandbox = try Sandbox()
        let opened = Locked<[URL]>([])
        let controller = ActivityViewController(
            activityItems: ["Look at this", URL(string: "https://example.com/post")!], applicationActivities: nil,
            registry: registry(sandbox, opened: opened))
        controller.present(with: ScriptedPresenter(pick: service.activityType))
        let outcome = await controller.waitForCompletion()
        #expect(outcome.completed, "\(String(describing: outcome.error))")
        let page = try #require(opened.withLock { $0 }.first)
        #expect(outcome.disposition == .opened)
        #expect(outcome.location == page.absoluteString)
        #expect(
            outcome.fallback?.message
                == "There is no \(service.displayName) account here, so the share page opened in the browser.")
        #expect(outcome.fallback?.fix == .addAccount)
        #expect(outcome.fallback?.setting == ShareError.Setting(group: "accounts", service.rawValue))
    }

    @Test("Flickr and Vimeo without an account in the host's store are unavailable, with the account to add")
    func accountRequired() throws {
        let sandbox = try Sandbox()
        let photo = try sandbox.file("photo.png", tinyPNG)
        let video = try sandbox.file("clip.mp4", Data("not really a video".utf8))
        for (service, item) in [(SocialService.flickr, photo), (.vimeo, video)] {
            let controller = ActivityViewController(
                activityItems: [item], applicationActivities: nil, registry: registry(sandbox))
            #expect(!controller.sheet.shareRow.compactMap(\.activityType).contains(service.activityType))
            let entry = controller.sheet.unavailable.first { $0.activity.activityType == service.activityType }
            let why = entry.flatMap { controller.sheet.unavailability(of: $0.activity) }
            #expect(why?.fix == .addAccount, "\(service): \(why?.reason ?? "offered")")
            #expect(why?.setting == ShareError.Setting(group: "accounts", service.rawValue))
        }
        // The host's token store is the one asked: with a Vimeo token there, Vimeo is offered.
        try sandbox.accounts.save("token", for: .vimeo)
        let controller = ActivityViewController(activityItems: [video], applicationActivities: nil, registry: registry(sandbox))
        #expect(controller.sheet.shareRow.compactMap(\.activityType).contains(.postToVimeo))
    }

    @Test("with the host's account and instance: posted, and the location is the status")
    func posted() async throws {
        let server = try await MastodonMock()
        defer { server.stop() }
        let sandbox = try Sandbox()
        try sandbox.accounts.save(MastodonMock.token, for: .mastodon)
        try sandbox.writeConfiguration("[mastodon]\ninstance=\(server.baseURL.absoluteString)\n")
        let controller = ActivityViewController(
            activityItems: ["Posted from a host environment"], applicationActivities: nil, registry: registry(sandbox))
        controller.present(with: ScriptedPresenter(pick: .postToMastodon))
        let outcome = await controller.waitForCompletion()
        #expect(outcome.completed, "\(String(describing: outcome.error))")
        let statuses = try await server.statuses()
        #expect(statuses.count == 1)
        #expect(outcome.disposition == .posted)
        #expect(outcome.location == statuses.first?["url"] as? String)
        #expect(outcome.fallback == nil)
    }
}
