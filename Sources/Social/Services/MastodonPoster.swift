import Foundation
import ShareSheet

/// Mastodon: each attachment through `POST /api/v2/media` (waiting while the server processes
/// it), then `POST /api/v1/statuses` with an `Idempotency-Key` made from the account, the text
/// and the files' contents, so sending it again (after a lost answer, or a rerun after exit 75)
/// returns the first status instead of posting a second one. A queued post keeps the key it
/// was first sent with, and every later attempt sends that one.
struct MastodonPoster: Poster {
    func post(_ post: SocialPost, context: PostingContext) async throws -> [URL] {
        let authorization = ("Authorization", "Bearer \(context.token)")
        var mediaIDs: [String] = []
        // Known before the first request: a post queued after any step keeps it.
        let key = try context.idempotencyKey ?? Self.idempotencyKey(for: post, token: context.token)
        context.session.ledger.idempotencyKey = key
        try context.countProgress(uploading: post.attachments, steps: 1)
        for attachment in post.attachments {
            let request = HTTPRequest(
                "POST", context.endpoint("/api/v2/media"), headers: [authorization],
                form: [attachment.formPart(name: "file")])
            // An upload only makes an unattached file: sending it again is harmless.
            let response = try await context.upload(
                request, of: attachment, what: "uploading \(attachment.filename)", idempotent: true,
                meaning: { ServiceSession.standardMeaning($0) })
            guard let id = jsonString(response.json?["id"]) else {
                throw ShareError(.unavailable, "mastodon: uploading \(attachment.filename): the answer has no media id")
            }
            if response.status == 202 { try await waitUntilProcessed(id, context: context, name: attachment.filename) }
            mediaIDs.append(id)
        }
        var body: [String: Any] = ["status": post.text]
        if !mediaIDs.isEmpty { body["media_ids"] = mediaIDs }
        if let visibility = context.setting("visibility") { body["visibility"] = visibility }
        let request = HTTPRequest(
            "POST", context.endpoint("/api/v1/statuses"),
            headers: [
                authorization, ("Content-Type", "application/json"),
                ("Idempotency-Key", key),
            ],
            body: try JSONSerialization.data(withJSONObject: body))
        let response = try await context.session.send(
            request, what: "posting", idempotent: true, meaning: { ServiceSession.standardMeaning($0) })
        context.progress.completedUnitCount += 1
        guard let url = response.jsonURL("url", "uri") else {
            throw ShareError(.unavailable, "mastodon: posting: the answer has no status URL")
        }
        return [url]
    }

    /// The key made from the account, the text and the files' contents.
    static func idempotencyKey(for post: SocialPost, token: String) throws -> String {
        var fingerprint = Data("\(Digest.sha256Hex(Data(token.utf8)))\n\(post.text)\n".utf8)
        for attachment in post.attachments { fingerprint.append(Data((try attachment.sha256Hex() + "\n").utf8)) }
        return Digest.sha256Hex(fingerprint)
    }

    /// `GET /api/v1/media/:id` answers 206 while the file is processed and 200 when it is ready.
    private func waitUntilProcessed(_ id: String, context: PostingContext, name: String) async throws {
        for _ in 0..<60 {
            let request = HTTPRequest(
                "GET", context.endpoint("/api/v1/media/\(id)"), headers: [("Authorization", "Bearer \(context.token)")])
            let response = try await context.session.send(
                request, what: "processing \(name)", idempotent: true, meaning: { ServiceSession.standardMeaning($0) })
            if response.status == 200, response.json?["url"] is String { return }
            try await Task.sleep(nanoseconds: 1_000_000_000)
        }
        throw ShareError(.temporaryFailure, "mastodon: \(name): the server is still processing it; try again later")
    }
}
