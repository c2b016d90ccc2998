import CurlClient
import Foundation
import ShareSheet

/// Facebook (Graph API), as the Page named by `[facebook] page=` (default `me`, the page of a
/// page access token): text and a link through `POST /{page}/feed`; one photo through
/// `POST /{page}/photos` with the text as its message; several photos uploaded unpublished,
/// then attached to one feed post.
struct FacebookPoster: Poster {
    func post(_ post: SocialPost, context: PostingContext) async throws -> [URL] {
        let page = context.setting("page") ?? "me"
        let images = post.attachments.filter(\.isImage)
        if let other = post.attachments.first(where: { !$0.isImage }) {
            throw ShareError(.badData, "facebook: \(other.filename): only photos can be posted to a Page from here")
        }
        try context.countProgress(uploading: images, steps: 1)
        if images.count == 1 {
            let response = try await uploadPhoto(images[0], message: post.text, published: true, page: page, context: context)
            context.progress.completedUnitCount = context.progress.totalUnitCount
            let id = jsonString(response.json?["post_id"]) ?? jsonString(response.json?["id"])
            guard let id else { throw ShareError(.unavailable, "facebook: posting: the answer has no post id") }
            return [URL(string: "https://www.facebook.com/\(id)")!]
        }
        var fields: [(String, String)] = [("message", post.text), ("access_token", context.token)]
        if images.isEmpty, let link = post.firstLink { fields.append(("link", link.absoluteString)) }
        for (index, image) in images.enumerated() {
            let response = try await uploadPhoto(image, message: nil, published: false, page: page, context: context)
            guard let id = jsonString(response.json?["id"]) else {
                throw ShareError(.unavailable, "facebook: uploading \(image.filename): the answer has no photo id")
            }
            fields.append(("attached_media[\(index)]", "{\"media_fbid\":\"\(id)\"}"))
        }
        let request = HTTPRequest(
            "POST", context.endpoint("/\(page)/feed"), headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: FormEncoding.body(fields))
        let response = try await context.session.send(request, what: "posting", idempotent: false, meaning: Self.meaning)
        context.progress.completedUnitCount += 1
        guard let id = jsonString(response.json?["id"]) else {
            throw ShareError(.unavailable, "facebook: posting: the answer has no post id")
        }
        return [URL(string: "https://www.facebook.com/\(id)")!]
    }

    private func uploadPhoto(
        _ image: SocialAttachment, message: String?, published: Bool, page: String, context: PostingContext
    ) async throws -> HTTPResponse {
        var form: [CurlFormPart] = [.field(name: "access_token", value: context.token)]
        if let message, !message.isEmpty { form.append(.field(name: "message", value: message)) }
        if !published { form.append(.field(name: "published", value: "false")) }
        form.append(image.formPart(name: "source"))
        let request = HTTPRequest("POST", context.endpoint("/\(page)/photos"), form: form)
        // A published photo is a post: never sent twice. An unpublished one is only a file.
        return try await context.upload(
            request, of: image, 
what: "uploading \(image.filename)", idempotent: !published, meaning: Self.meaning)
    }

    /// Graph API errors: `{"error": {"message", "type", "code"}}`; code 190 is a refused token,
    /// 4, 17, 32, 613 and 80001 are rate limits.
    static func meaning(_ response: HTTPResponse) -> AnswerMeaning {
        if response.isSuccess { return .success }
        let error = response.json?["error"] as? [String: Any]
        let code = (error?["code"] as? NSNumber)?.intValue ?? (error?["code"] as? Int)
        switch code ?? 0 {
        case 190, 102: return .tokenRefused
        case 4, 17, 32, 613, 80001: return .rateLimited(retryAfter: ServiceSession.retryAfter(response))
        default: break
        }
        if response.status == 401 { return .tokenRefused }
        if response.status == 429 { return .rateLimited(retryAfter: ServiceSession.retryAfter(response)) }
        let message = (error?["message"] as? String) ?? response.snippet
        return .failed("HTTP \(response.status): \(message)")
    }
}
