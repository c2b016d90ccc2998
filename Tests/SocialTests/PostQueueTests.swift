import Foundation
import LocalTestSupport
import Testing

/// A post while its server is down waits in the share queue (SPEC §14) and goes once, with
/// `share outbox flush`, when the server is back: the built `share` against mastodon-mock.
@Suite("Posting while the server is down: queued, then sent once", .serialized)
struct PostQueueTests {
    /// Runs `share` with the account's token in the environment: `share accounts add` would
    /// check it against the server that is down.
    private func share(_ arguments: [String], _ sandbox: Sandbox, token: String = MastodonMock.token) throws -> ShareRun {
        try ShareRunner.share(arguments, sandbox: sandbox, extra: ["SHARESHEET_TOKEN_MASTODON": token])
    }

    /// What `share outbox list --json` lists.
    private func outbox(_ sandbox: Sandbox) throws -> [[String: Any]] {
        let run = try share(["outbox", "list", "--json"], sandbox)
        #expect(run.status == 0, "\(run)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [[String: Any]], "\(run.output)")
    }

    /// The `share.json` of the one queued entry.
    private func storedShare(_ sandbox: Sandbox) throws -> [String: Any] {
        let new = sandbox.home.appendingPathComponent(".local/share/sharesheet/Queue/new")
        let ids = try FileManager.default.contentsOfDirectory(atPath: new.path)
        try #require(ids.count == 1, "\(ids)")
        let data = try Data(contentsOf: new.appendingPathComponent(ids[0]).appendingPathComponent("share.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("down: exit 75 and queued with its photo; up: outbox flush posts it once, and a second flush posts nothing")
    func queuedWhileDownThenFlushed() async throws {
        let sandbox = try Sandbox()
        let port = try Loopback.freePort()
        try sandbox.writeConfiguration("[mastodon]\ninstance=http://127.0.0.1:\(port)\nvisibility=unlisted\n")
        let photo = try sandbox.file("photo.png", tinyPNG)
        let posted = try share(["--activity", "mastodon", "--text", "Written offline", "photo.png"], sandbox)
        #expect(posted.status == 75, "\(posted)")
        #expect(posted.error.contains("127.0.0.1 cannot be reached now; the post will go when it can."), "\(posted.error)")
        #expect(posted.error.contains("share outbox flush"))
        let queued = try outbox(sandbox)
        #expect(queued.count == 1)
        #expect(queued.first?["kind"] as? String == "post")
        #expect(queued.first?["state"] as? String == "queued")
        #expect(queued.first?["recipients"] as? [String] == ["your Mastodon account on 127.0.0.1"])
        #expect(queued.first?["reason"] as? String == "127.0.0.1 could not be reached.")
        #expect(queued.first?["preview"] as? String == "photo.png and a text")
        let id = try #require(queued.first?["id"] as? String)
        #expect(posted.output == id + "\n")
        // What the sender needs and nothing secret: no token, the settings as they were.
        let stored = try storedShare(sandbox)
        let parameters = try #require(stored["parameters"] as? [String: String])
        #expect(parameters["service"] == "mastodon" && parameters["account"] == "mastodon")
        #expect(parameters["setting.visibility"] == "unlisted")
        #expect(parameters["idempotency-key"]?.count == 64)
        #expect(!parameters.values.contains(MastodonMock.token))
        #expect(stored["waitsFor"] as? [String: Any] != nil)
        // The queue has its own copy of the photo.
        try FileManager.default.removeItem(at: photo)

        let server = try await MastodonMock(port: port)
        defer { server.stop() }
        let flushed = try share(["outbox", "flush"], sandbox)
        #expect(flushed.status == 0, "\(flushed)")
        #expect(flushed.output == "sent \(id) to your Mastodon account on 127.0.0.1\n")
        let statuses = try await server.statuses()
        #expect(statuses.count == 1)
        #expect((statuses.first?["content"] as? String)?.contains("Written offline") == true)
        #expect(statuses.first?["visibility"] as? String == "unlisted")
        let media = try #require(statuses.first?["media_attachments"] as? [[String: Any]])
        #expect(media.count == 1 && media.first?["type"] as? String == "image")
        #expect(try outbox(sandbox).isEmpty)

        let again = try share(["outbox", "flush"], sandbox)
        #expect(again.status == 0 && again.output.isEmpty, "\(again)")
        #expect(try await server.statuses().count == 1)
    }

    @Test("a flush whose answers are lost keeps the post; the next flush sends the same Idempotency-Key: one status")
    func lostAnswerIsNotPostedTwice() async throws {
        let sandbox = try Sandbox()
        let port = try Loopback.freePort()
        // Both answers of the first flush (the post and the session's one resend) are dropped
        // after the server made the status.
        let proxy = try DroppingProxy(upstreamPort: port, prefix: "POST /api/v1/statuses", drop: 2)
        defer { proxy.stop() }
        try sandbox.writeConfiguration("[mastodon]\ninstance=\(proxy.baseURL.absoluteString)\n")
        let posted = try share(["--activity", "mastodon", "--text", "Exactly once"], sandbox)
        #expect(posted.status == 75, "\(posted)")
        #expect(try outbox(sandbox).count == 1)

        let server = try await MastodonMock(port: port)
        defer { server.stop() }
        let first = try share(["outbox", "flush"], sandbox)
        #expect(first.status == 75, "\(first)")
        #expect(proxy.log.filter { $0.hasPrefix("DROPPED POST /api/v1/statuses") }.count == 2, "\(proxy.log)")
        #expect(try await server.statuses().count == 1, "the server made the status; its answer was lost")
        let kept = try outbox(sandbox)
        #expect(kept.count == 1 && kept.first?["lastError"] is String, "\(kept)")

        let second = try share(["outbox", "flush"], sandbox)
        #expect(second.status == 0, "\(second)")
        #expect(proxy.log.last?.hasPrefix("PASSED POST /api/v1/statuses") == true, "\(proxy.log)")
        let statuses = try await server.statuses()
        #expect(statuses.count == 1, "posted \(statuses.count) times")
        #expect(try outbox(sandbox).isEmpty)
    }

    @Test("a 503 from the server before anything was made queues the post; the flush posts it")
    func unavailableServerQueues() async throws {
        let server = try await MastodonMock()
        defer { server.stop() }
        try await server.addFault([
            "match": ["methods": ["POST"], "path": "/api/v1/statuses"], "effect": ["type": "status", "status": 503], "count": 1,
        ])
        let sandbox = try Sandbox()
        try sandbox.writeConfiguration("[mastodon]\ninstance=\(server.baseURL.absoluteString)\n")
        let posted = try share(["--activity", "mastodon", "--text", "After the outage"], sandbox)
        #expect(posted.status == 75, "\(posted)")
        #expect(try outbox(sandbox).count == 1)
        #expect(try await server.statuses().isEmpty)
        let flushed = try share(["outbox", "flush"], sandbox)
        #expect(flushed.status == 0, "\(flushed)")
        #expect(try await server.statuses().count == 1)
        #expect(try outbox(sandbox).isEmpty)
    }

    @Test("a server name that does not resolve is said as being offline, and the post waits for the network")
    func unresolvedNameSaysOffline() throws {
        let sandbox = try Sandbox()
        // .invalid never resolves (RFC 6761).
        try sandbox.writeConfiguration("[mastodon]\ninstance=http://sharesheet-test.invalid\n")
        let posted = try share(["--activity", "mastodon", "--text", "On the train"], sandbox)
        #expect(posted.status == 75, "\(posted)")
        #expect(
            posted.error.contains(
                "You seem to be offline (sharesheet-test.invalid's name does not resolve); the post will go when you are back online."),
            "\(posted.error)")
        let queued = try outbox(sandbox)
        #expect(queued.count == 1 && queued.first?["recipients"] as? [String] == ["your Mastodon account on sharesheet-test.invalid"])
    }

    @Test("a refused token (401) is not queued: it fails as before, exit 78")
    func refusedTokenIsNotQueued() async throws {
        let server = try await MastodonMock()
        defer { server.stop() }
        let sandbox = try Sandbox()
        try sandbox.writeConfiguration("[mastodon]\ninstance=\(server.baseURL.absoluteString)\n")
        let posted = try share(["--activity", "mastodon", "--text", "Never posted"], sandbox, token: "revoked-token")
        #expect(posted.status == 78, "\(posted)")
        #expect(posted.error.contains("refused the account's token"), "\(posted.error)")
        #expect(try outbox(sandbox).isEmpty)
        #expect(try await server.statuses().isEmpty)
    }
}
