import Foundation
import LocalTestSupport
import ShareSheet
import ShareSheetSystem
import Testing

@testable import Social

/// Posting to mastodon-mock, the stateful Mastodon-API server, on loopback; every post is read
/// back through its own API.
@Suite("Mastodon against mastodon-mock", .serialized)
struct MastodonTests {
    private func composer(
        instance: URL, token: String = MastodonMock.token, sandbox: Sandbox, waits: WaitRecorder? = nil
    ) throws -> SocialComposer {
        try sandbox.accounts.save(token, for: .mastodon)
        let configuration = Configuration(["mastodon": ["instance": instance.absoluteString]])
        let composer = SocialComposer(
            service: .mastodon, configuration: configuration, accounts: sandbox.accounts,
            openWebPage: { url in Issue.record("no web page should open: \(url)") })
        return waits.map { composer.waiting(with: $0.sleeper) } ?? composer
    }

    @Test("a text post lands once, with its link, and its URL comes back")
    func text() async throws {
        let server = try await MastodonMock()
        defer { server.stop() }
        let sandbox = try Sandbox()
        let composer = try composer(instance: server.baseURL, sandbox: sandbox)
        let posted = try await composer.post(SocialPost(text: "Hello from ShareSheet https://example.com/page"))
        let statuses = try await server.statuses()
        #expect(statuses.count == 1)
        let content = try #require(statuses.first?["content"] as? String)
        #expect(content.contains("Hello from ShareSheet"))
        #expect(content.contains("https://example.com/page"))
        let url = try #require(statuses.first?["url"] as? String)
        #expect(posted.map(\.absoluteString) == [url])
    }

    @Test("a post with an image uploads it through /api/v2/media and attaches it")
    func textWithImage() async throws {
        let server = try await MastodonMock()
        defer { server.stop() }
        let sandbox = try Sandbox()
        let composer = try composer(instance: server.baseURL, sandbox: sandbox)
        let image = try sandbox.file("a b;c.png", tinyPNG)
        let post = SocialPost(items: ["A tiny picture", image])
        #expect(post.attachments.count == 1)
        let posted = try await composer.post(post)
        #expect(posted.count == 1)
        let statuses = try await server.statuses()
        #expect(statuses.count == 1)
        let media = try #require(statuses.first?["media_attachments"] as? [[String: Any]])
        #expect(media.count == 1)
        #expect(media.first?["type"] as? String == "image")
        #expect((statuses.first?["content"] as? String)?.contains("A tiny picture") == true)
    }

    @Test("a lost answer is retried with the same Idempotency-Key: one status, not two")
    func retryAfterDroppedResponse() async throws {
        let server = try await MastodonMock()
        defer { server.stop() }
        let proxy = try DroppingProxy(upstreamPort: server.peer.port, prefix: "POST /api/v1/statuses", drop: 1)
        defer { proxy.stop() }
        let sandbox = try Sandbox()
        let composer = try composer(instance: proxy.baseURL, sandbox: sandbox)
        let posted = try await composer.post(SocialPost(text: "Posted exactly once"))
        // The server received the post twice: the first answer was dropped on the way back.
        #expect(proxy.log.filter { $0.contains("POST /api/v1/statuses") }.count == 2)
        #expect(proxy.log.first?.hasPrefix("DROPPED") == true)
        let statuses = try await server.statuses()
        #expect(statuses.count == 1, "posted \(statuses.count) times")
        #expect(posted.map(\.absoluteString) == [statuses.first?["url"] as? String])
    }

    @Test("running the same share again after a failure does not post twice")
    func rerunDoesNotPostTwice() async throws {
        let server = try await MastodonMock()
        defer { server.stop() }
        let sandbox = try Sandbox()
        let composer = try composer(instance: server.baseURL, sandbox: sandbox)
        let image = try sandbox.file("photo.png", tinyPNG)
        let first = try await composer.post(SocialPost(text: "Same post", attachments: [SocialAttachment(fileURL: image)]))
        let second = try await composer.post(SocialPost(text: "Same post", attachments: [SocialAttachment(fileURL: image)]))
        #expect(first == second)
        #expect(try await server.statuses().count == 1)
    }

    @Test("a refused token says to add the account again, and nothing is posted")
    func expiredToken() async throws {
        let server = try await MastodonMock()
        defer { server.stop() }
        let sandbox = try Sandbox()
        let composer = try composer(instance: server.baseURL, token: "revoked-token", sandbox: sandbox)
        let error = try await #require(throws: ShareError.self) {
            try await composer.post(SocialPost(text: "Never posted"))
        }
        #expect(error.kind == .configuration)
        #expect(error.fix == .addAccount && error.setting == ShareError.Setting(group: "accounts", "mastodon"), "\(error)")
        #expect(!error.message.contains("revoked-token"))
        #expect(try await server.statuses().isEmpty)
    }

    @Test("a rate limit is waited out once, for the server's Retry-After, then the post goes")
    func rateLimitWaitedOnce() async throws {
        let server = try await MastodonMock()
        defer { server.stop() }
        try await server.addFault([
            "match": ["methods": ["POST"], "path": "/api/v1/statuses"],
            "effect": ["type": "ratelimit", "headers": ["Retry-After": "7"]], "count": 1,
        ])
        let sandbox = try Sandbox()
        let waits = WaitRecorder()
        let composer = try composer(instance: server.baseURL, sandbox: sandbox, waits: waits)
        _ = try await composer.post(SocialPost(text: "After the wait"))
        #expect(waits.waits == [7])
        #expect(try await server.statuses().count == 1)
    }

    @Test("a rate limit that lasts fails with the time to wait, after one wait (exit 75)")
    func rateLimitThenFail() async throws {
        let server = try await MastodonMock()
        defer { server.stop() }
        try await server.addFault([
            "match": ["methods": ["POST"], "path": "/api/v1/statuses"],
            "effect": ["type": "ratelimit", "headers": ["Retry-After": "9"]], "count": 5,
        ])
        let sandbox = try Sandbox()
        let waits = WaitRecorder()
        let composer = try composer(instance: server.baseURL, sandbox: sandbox, waits: waits)
        let error = try await #require(throws: ShareError.self) {
            try await composer.post(SocialPost(text: "Rate limited"))
        }
        #expect(error.kind == .temporaryFailure)
        #expect(error.message.contains("try again in 9 s"))
        #expect(waits.waits == [9])
        #expect(try await server.statuses().isEmpty)
    }

    @Test("with the network down the post fails with exit 75 and says nothing was posted")
    func networkDown() async throws {
        let sandbox = try Sandbox()
        let instance = URL(string: "http://127.0.0.1:\((try Loopback.freePort()))")!
        let composer = try composer(instance: instance, sandbox: sandbox)
        let error = try await #require(throws: ShareError.self) {
            try await composer.post(SocialPost(text: "Offline"))
        }
        #expect(error.kind == .temporaryFailure)
        #expect(error.message.contains("nothing was posted"))
    }

    @Test("without an account the instance's share page opens with the text")
    func webShareWithoutAccount() async throws {
        let sandbox = try Sandbox()
        let opened = Locked<[URL]>([])
        let composer = SocialComposer(
            service: .mastodon, configuration: Configuration(["mastodon": ["instance": "social.example"]]),
            accounts: sandbox.accounts, openWebPage: { url in opened.withLock { $0.append(url) } })
        let posted = try await composer.post(SocialPost(text: "Hi & bye https://example.com/x?a=1"))
        let page = try #require(opened.withLock { $0 }.first)
        #expect(posted == [page])
        #expect(page.absoluteString.hasPrefix("https://social.example/share?text="))
        let components = try #require(URLComponents(url: page, resolvingAgainstBaseURL: false))
        #expect(components.queryItems?.first?.value == "Hi & bye https://example.com/x?a=1")
    }
}
