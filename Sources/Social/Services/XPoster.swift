import CurlClient
import Foundation
import ShareSheet

/// X (API v2): each image through `POST /2/media/upload`, then `POST /2/tweets` with the text
/// and the media ids. X has no idempotency key, so a post that may have reached X is never
/// sent again automatically.
struct XPoster: Poster {
    func post(_ post: SocialPost, context: PostingContext) async throws -> [URL] {
        let authorization = ("Authorization", "Bearer \(context.token)")
        var mediaIDs: [String] = []
        if let other = post.attachments.first(where: { !$0.isImage }) {
            throw ShareError(.badData, "twitter: \(other.filename): only images can be posted to X from here")
        }
        try context.countProgress(uploading: post.attachments, steps: 1)
        for attachment in post.attachments {
            let form: [CurlFormPart] = [
                attachment.formPart(name: "media"),
                .field(
                    name: "media_category",
                    value: attachment.type.identifier == "com.compuserve.gif" ? "tweet_gif" : "tweet_image"),
                .field(name: "media_type", value: attachment.mimeType),
            ]
            let request = HTTPRequest("POST", context.endpoint("/2/media/upload"), headers: [authorization], form: form)
            let response = try await context.upload(
                request, of: attachment, what: "uploading \(attachment.filename)", idempotent: true,
                meaning: { ServiceSession.standardMeaning($0, errorKeys: ["detail", "title", "error"]) })
            let data = response.json?["data"] as? [String: Any]
            guard let id = jsonString(data?["id"]) ?? jsonString(response.json?["media_id_string"]) else {
                throw ShareError(.unavailable, "twitter: uploading \(attachment.filename): the answer has no media id")
            }
            mediaIDs.append(id)
        }
        var body: [String: Any] = ["text": post.text]
        if !mediaIDs.isEmpty { body["media"] = ["media_ids": mediaIDs] }
        let request = HTTPRequest(
            "POST", context.endpoint("/2/tweets"), headers: [authorization, ("Content-Type", "application/json")],
            body: try JSONSerialization.data(withJSONObject: body))
        let response = try await context.session.send(
            request, what: "posting", idempotent: false,
            meaning: { ServiceSession.standardMeaning($0, errorKeys: ["detail", "title", "error"]) })
        context.progress.completedUnitCount += 1
        guard let id = jsonString((response.json?["data"] as? [String: Any])?["id"]) else {
            throw ShareError(.unavailable, "twitter: posting: the answer has no post id")
        }
        return [URL(string: "https://x.com/i/web/status/\(id)")!]
    }
}
