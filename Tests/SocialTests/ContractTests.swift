import Foundation
import LocalTestSupport
import ShareSheet
import ShareSheetSystem
import Testing

@testable import Social

/// X, Facebook, Weibo, Flickr and Vimeo against local stand-ins written from their API
/// documentation (ContractServer): the requests carry what the documentation asks for, the
/// answers become the posted URLs, and documented errors become errors a person can act on.
@Suite("Services against their documented contracts")
struct ContractTests {
    private func composer(
        _ service: SocialService, server: ContractServer, token: String, apiPath: String = "",
        settings: [String: String] = [:], sandbox: Sandbox, waits: WaitRecorder? = nil
    ) throws -> SocialComposer {
        try sandbox.accounts.save(token, for: service)
        var group = settings
        group["api"] = server.baseURL.absoluteString + apiPath
        let composer = SocialComposer(
            service: service, configuration: Configuration([service.rawValue: group]), accounts: sandbox.accounts,
            openWebPage: { url in Issue.record("no web page should open: \(url)") })
        return waits.map { composer.waiting(with: $0.sleeper) } ?? composer
    }

    // MARK: X

    @Test("X: the image goes to /2/media/upload, then /2/tweets carries the text and its media id")
    func xPostWithImage() async throws {
        let server = try ContractServer(service: "twitter")
        defer { server.stop() }
        let sandbox = try Sandbox()
        let composer = try composer(.twitter, server: server, token: "user-token", sandbox: sandbox)
        let image = try sandbox.file("photo.png", tinyPNG)
        let posted = try await composer.post(SocialPost(items: ["Retweet this!", image]))
        let requests = server.requests
        #expect(requests.map { $0["path"] as? String } == ["/2/media/upload", "/2/tweets"])
        #expect(requests[0][path: "headers.authorization"] as? String == "Bearer user-token")
        #expect(requests[0][path: "files.media.filename"] as? String == "photo.png")
        #expect(requests[0][path: "fields.media_category"] as? String == "tweet_image")
        #expect(requests[1][path: "json.text"] as? String == "Retweet this!")
        #expect(requests[1][path: "json.media.media_ids"] as? [String] == ["1001"])
        #expect(posted.map(\.absoluteString) == ["https://x.com/i/web/status/1002"])
    }

    @Test("X: an expired token (401) says to run share accounts add twitter")
    func xExpired() async throws {
        let server = try ContractServer(service: "twitter")
        defer { server.stop() }
        let sandbox = try Sandbox()
        let composer = try composer(.twitter, server: server, token: "expired", sandbox: sandbox)
        let error = try await #require(throws: ShareError.self) { try await composer.post(SocialPost(text: "hi")) }
        #expect(error.kind == .configuration)
        #expect(error.fix == .addAccount && error.setting == ShareError.Setting(group: "accounts", "twitter"), "\(error)")
    }

    @Test("X: a rate limit waits once until x-rate-limit-reset, then fails with exit 75, posting nothing")
    func xRateLimited() async throws {
        let server = try ContractServer(service: "twitter")
        defer { server.stop() }
        let sandbox = try Sandbox()
        let waits = WaitRecorder()
        let composer = try composer(.twitter, server: server, token: "limited", sandbox: sandbox, waits: waits)
        let error = try await #require(throws: ShareError.self) { try await composer.post(SocialPost(text: "hi")) }
        #expect(error.kind == .temporaryFailure)
        #expect(error.message.contains("try again in"))
        // The wait comes from x-rate-limit-reset (a time), so only its count is checked.
        #expect(waits.waits.count == 1)
        #expect(server.requests.count == 2)
    }

    @Test("X: a post that may have arrived is never sent twice (no idempotency key on X)")
    func xNoBlindRetry() async throws {
        let server = try ContractServer(service: "twitter")
        let proxy = try DroppingProxy(upstreamPort: server.peer.port, prefix: "POST /2/tweets", drop: 1)
        defer {
            proxy.stop()
            server.stop()
        }
        let sandbox = try Sandbox()
        try sandbox.accounts.save("user-token", for: .twitter)
        let composer = SocialComposer(
            service: .twitter, configuration: Configuration(["twitter": ["api": proxy.baseURL.absoluteString]]),
            accounts: sandbox.accounts)
        let error = try await #require(throws: ShareError.self) { try await composer.post(SocialPost(text: "once")) }
        #expect(error.kind == .temporaryFailure)
        #expect(error.message.contains("check before you try again"))
        #expect(server.requests.filter { $0["path"] as? String == "/2/tweets" }.count == 1)
    }

    // MARK: Facebook

    @Test("Facebook: text and a link go to /{page}/feed as form fields with the page token")
    func facebookFeed() async throws {
        let server = try ContractServer(service: "facebook")
        defer { server.stop() }
        let sandbox = try Sandbox()
        let composer = try composer(
            .facebook, server: server, token: "page-token", apiPath: "/v21.0", settings: ["page": "4242"], sandbox: sandbox)
        let posted = try await composer.post(SocialPost(items: ["Like this!", URL(string: "https://example.com/story")!]))
        let request = try #require(server.requests.first)
        #expect(request["path"] as? String == "/v21.0/4242/feed")
        #expect(request[path: "fields.message"] as? String == "Like this! https://example.com/story")
        #expect(request[path: "fields.link"] as? String == "https://example.com/story")
        #expect(request[path: "fields.access_token"] as? String == "page-token")
        #expect(posted.map(\.absoluteString) == ["https://www.facebook.com/4242_1001"])
    }

    @Test("Facebook: one photo goes to /{page}/photos with the text as its message")
    func facebookPhoto() async throws {
        let server = try ContractServer(service: "facebook")
        defer { server.stop() }
        let sandbox = try Sandbox()
        let composer = try composer(.facebook, server: server, token: "page-token", apiPath: "/v21.0", sandbox: sandbox)
        let image = try sandbox.file("p.png", tinyPNG)
        let posted = try await composer.post(SocialPost(text: "Look", attachments: [SocialAttachment(fileURL: image)]))
        let request = try #require(server.requests.first)
        #expect(request["path"] as? String == "/v21.0/me/photos")
        #expect(request[path: "files.source.filename"] as? String == "p.png")
        #expect(request[path: "fields.message"] as? String == "Look")
        #expect(posted.map(\.absoluteString) == ["https://www.facebook.com/me_1001"])
    }

    @Test("Facebook: several photos are uploaded unpublished, then attached to one feed post")
    func facebookPhotos() async throws {
        let server = try ContractServer(service: "facebook")
        defer { server.stop() }
        let sandbox = try Sandbox()
        let composer = try composer(.facebook, server: server, token: "page-token", apiPath: "/v21.0", sandbox: sandbox)
        let one = try sandbox.file("1.png", tinyPNG)
        let two = try sandbox.file("2.png", tinyPNG)
        _ = try await composer.post(SocialPost(text: "Two", attachments: [.init(fileURL: one), .init(fileURL: two)]))
        let requests = server.requests
        #expect(requests.map { $0["path"] as? String } == ["/v21.0/me/photos", "/v21.0/me/photos", "/v21.0/me/feed"])
        #expect(requests[0][path: "fields.published"] as? String == "false")
        #expect(requests[2][path: "fields.attached_media[0]"] as? String == #"{"media_fbid":"1001"}"#)
        #expect(requests[2][path: "fields.attached_media[1]"] as? String == #"{"media_fbid":"1002"}"#)
    }

    @Test("Facebook: error 190 (expired session) says to add the account again")
    func facebookExpired() async throws {
        let server = try ContractServer(service: "facebook")
        defer { server.stop() }
        let sandbox = try Sandbox()
        let composer = try composer(.facebook, server: server, token: "expired", apiPath: "/v21.0", sandbox: sandbox)
        let error = try await #require(throws: ShareError.self) { try await composer.post(SocialPost(text: "hi")) }
        #expect(error.fix == .addAccount && error.setting == ShareError.Setting(group: "accounts", "facebook"), "\(error)")
        #expect(error.kind == .configuration, "a refused token exits 78")
    }

    @Test("Facebook: without an account only a link can go, through the sharer")
    func facebookSharer() async throws {
        let sandbox = try Sandbox()
        let opened = Locked<[URL]>([])
        let composer = SocialComposer(
            service: .facebook, configuration: .empty, accounts: sandbox.accounts,
            openWebPage: { url in opened.withLock { $0.append(url) } })
        #expect(composer.route(hasAttachments: false, hasLink: false) != .webPage)
        let posted = try await composer.post(SocialPost(text: "https://example.com/a?b=c"))
        #expect(posted.map(\.absoluteString) == ["https://www.facebook.com/sharer/sharer.php?u=https%3A%2F%2Fexample.com%2Fa%3Fb%3Dc"])
        #expect(opened.withLock { $0 } == posted)
    }

    // MARK: Weibo

    @Test("Weibo: share.json gets the token, the status and the image as pic")
    func weiboShare() async throws {
        let server = try ContractServer(service: "weibo")
        defer { server.stop() }
        let sandbox = try Sandbox()
        let composer = try composer(.weibo, server: server, token: "weibo-token", sandbox: sandbox)
        let image = try sandbox.file("图.png", tinyPNG)
        let posted = try await composer.post(
            SocialPost(text: "好看 https://example.com/p", attachments: [SocialAttachment(fileURL: image)]))
        let request = try #require(server.requests.first)
        #expect(request["path"] as? String == "/2/statuses/share.json")
        #expect(request[path: "fields.access_token"] as? String == "weibo-token")
        #expect(request[path: "fields.status"] as? String == "好看 https://example.com/p")
        #expect(request[path: "files.pic.type"] as? String == "image/png")
        #expect(posted.map(\.absoluteString) == ["https://weibo.com/1404376560/1001"])
    }

    @Test("Weibo: expired_token (21327) says to add the account again; Weibo's own refusal is shown")
    func weiboErrors() async throws {
        let server = try ContractServer(service: "weibo")
        defer { server.stop() }
        let sandbox = try Sandbox()
        let expired = try composer(.weibo, server: server, token: "expired", sandbox: sandbox)
        let error = try await #require(throws: ShareError.self) { try await expired.post(SocialPost(text: "a https://e.x")) }
        #expect(error.fix == .addAccount && error.setting == ShareError.Setting(group: "accounts", "weibo"), "\(error)")
        #expect(error.kind == .configuration, "a refused token exits 78")
        let good = try composer(.weibo, server: server, token: "ok", sandbox: sandbox)
        let refused = try await #require(throws: ShareError.self) { try await good.post(SocialPost(text: "no link")) }
        #expect(refused.message.contains("text not find domain! (10017)"))
    }

    // MARK: Flickr

    @Test("Flickr: the upload is signed with OAuth 1.0a HMAC-SHA1 that the server verifies independently")
    func flickrSignedUpload() async throws {
        let server = try ContractServer(service: "flickr")
        defer { server.stop() }
        let sandbox = try Sandbox()
        let token = "consumer-key:\(ContractServer.flickrConsumerSecret):user-token:\(ContractServer.flickrTokenSecret)"
        let composer = try composer(.flickr, server: server, token: token, sandbox: sandbox)
        let image = try sandbox.file("sunset & sea.png", tinyPNG)
        let posted = try await composer.post(
            SocialPost(text: "Sunset, été 🌅", attachments: [SocialAttachment(fileURL: image)]))
        let request = try #require(server.requests.first)
        #expect(request["signature_valid"] as? Bool == true)
        #expect(request[path: "fields.title"] as? String == "Sunset, été 🌅")
        #expect(request[path: "files.photo.filename"] as? String == "sunset & sea.png")
        #expect(posted.map(\.absoluteString) == ["https://www.flickr.com/photo.gne?id=1001"])
    }

    @Test("Flickr: a wrong secret fails the server's check; error 98 says to add the account again")
    func flickrErrors() async throws {
        let server = try ContractServer(service: "flickr")
        defer { server.stop() }
        let sandbox = try Sandbox()
        let image = try sandbox.file("p.png", tinyPNG)
        let post = SocialPost(text: "x", attachments: [SocialAttachment(fileURL: image)])
        let wrong = try composer(.flickr, server: server, token: "k:wrong:t:\(ContractServer.flickrTokenSecret)", sandbox: sandbox)
        let invalid = try await #require(throws: ShareError.self) { try await wrong.post(post) }
        #expect(invalid.message.contains("Invalid signature"))
        #expect(server.requests.first?["signature_valid"] as? Bool == false)
        let expired = try composer(.flickr, server: server, token: "k:s:expired:t", sandbox: sandbox)
        let refused = try await #require(throws: ShareError.self) { try await expired.post(post) }
        #expect(refused.fix == .addAccount && refused.setting == ShareError.Setting(group: "accounts", "flickr"), "\(refused)")
        #expect(refused.kind == .configuration, "a refused token exits 78")
    }

    @Test("Flickr and Vimeo without an account are unavailable, with the reason")
    func noAccount() throws {
        let sandbox = try Sandbox()
        for service in [SocialService.flickr, .vimeo] {
            let composer = SocialComposer(service: service, configuration: .empty, accounts: sandbox.accounts)
            guard case .unavailable(let reason) = composer.route(hasAttachments: true, hasLink: false) else {
                Issue.record("\(service) has a route without an account")
                continue
            }
            #expect(reason.fix == .addAccount && reason.setting == ShareError.Setting(group: "accounts", service.rawValue))
            #expect(!reason.reason.contains("accounts add"), "a fact, not a command line: \(reason)")
        }
    }

    // MARK: Vimeo

    private func video(_ sandbox: Sandbox, bytes: Int) throws -> (URL, Data) {
        var data = Data(count: bytes)
        for index in 0..<bytes { data[index] = UInt8(truncatingIfNeeded: index &* 31 &+ 7) }
        return (try sandbox.file("clip.mp4", data), data)
    }

    @Test("Vimeo: POST /me/videos asks for tus, then PATCHes go chunk by chunk at the server's offsets")
    func vimeoUpload() async throws {
        let server = try ContractServer(service: "vimeo")
        defer { server.stop() }
        let sandbox = try Sandbox()
        let (file, data) = try video(sandbox, bytes: 10_000)
        let composer = try composer(.vimeo, server: server, token: "vimeo-token", settings: ["chunk-size": "4000"], sandbox: sandbox)
        let progress = Progress(totalUnitCount: 1)
        let posted = try await composer.post(SocialPost(text: "My clip", attachments: [SocialAttachment(fileURL: file)]), progress: progress)
        #expect(posted.map(\.absoluteString) == ["https://vimeo.com/1001"])
        let requests = server.requests
        #expect(requests.first?[path: "json.upload.approach"] as? String == "tus")
        #expect(requests.first?[path: "json.upload.size"] as? String == "10000")
        #expect(requests.first?[path: "headers.authorization"] as? String == "bearer vimeo-token")
        let patches = requests.filter { $0["method"] as? String == "PATCH" }
        #expect(patches.map { $0[path: "headers.upload-offset"] as? String } == ["0", "4000", "8000"])
        #expect(progress.completedUnitCount == 10_000)
        let uploaded = try await TestHTTP.request("GET", server.baseURL.appendingPathComponent("_uploaded/1001"))
        #expect(uploaded.body == data)
    }

    @Test("Vimeo: a PATCH cut off halfway resumes from the Upload-Offset the server reports (HEAD), not from 0")
    func vimeoResume() async throws {
        let server = try ContractServer(service: "vimeo")
        defer { server.stop() }
        let sandbox = try Sandbox()
        let (file, data) = try video(sandbox, bytes: 9_000)
        let composer = try composer(.vimeo, server: server, token: "flaky", settings: ["chunk-size": "6000"], sandbox: sandbox)
        let posted = try await composer.post(SocialPost(text: "", attachments: [SocialAttachment(fileURL: file)]))
        #expect(posted.count == 1)
        let requests = server.requests.filter { ($0["path"] as? String)?.hasPrefix("/tus/") == true }
        // PATCH at 0 is cut after 3000 bytes; HEAD says 3000; the upload goes on from 3000.
        #expect(requests.first?["dropped_after"] as? Int == 3000)
        #expect(requests.map { $0["method"] as? String } == ["PATCH", "HEAD", "PATCH"])
        let patches = requests.filter { $0["method"] as? String == "PATCH" }
        #expect(patches.map { $0[path: "headers.upload-offset"] as? String } == ["0", "3000"])
        #expect(patches.last?[path: "headers.content-length"] as? String == "6000")
        let uploaded = try await TestHTTP.request("GET", server.baseURL.appendingPathComponent("_uploaded/1001"))
        #expect(uploaded.body == data)
    }

    @Test("Vimeo: 429 with Retry-After is waited out once, then reported")
    func vimeoRateLimit() async throws {
        let server = try ContractServer(service: "vimeo")
        defer { server.stop() }
        let sandbox = try Sandbox()
        let (file, _) = try video(sandbox, bytes: 100)
        let waits = WaitRecorder()
        let composer = try composer(.vimeo, server: server, token: "limited", sandbox: sandbox, waits: waits)
        let error = try await #require(throws: ShareError.self) {
            try await composer.post(SocialPost(text: "", attachments: [SocialAttachment(fileURL: file)]))
        }
        #expect(waits.waits == [4])
        #expect(error.kind == .temporaryFailure)
        #expect(error.message.contains("try again in 4 s"))
    }
}
