import CurlClient
import Foundation
import ShareSheet

/// Weibo: `POST /2/statuses/share.json` (multipart: `access_token`, `status`, and `pic`, one
/// image). Weibo requires the text to hold a link to the application's registered domain.
struct WeiboPoster: Poster {
    func post(_ post: SocialPost, context: PostingContext) async throws -> [URL] {
        let images = post.attachments.filter(\.isImage)
        if images.count > 1 {
            throw ShareError(.badData, "weibo: Weibo's share API takes one image; \(images.count) were given")
        }
        if let other = post.attachments.first(where: { !$0.isImage }) {
            throw ShareError(.badData, "weibo: \(other.filename): only an image can go with a Weibo post")
        }
        try context.countProgress(uploading: images, steps: 1)
        var form: [CurlFormPart] = [.field(name: "access_token", value: context.token), .field(name: "status", value: post.text)]
        if let image = images.first { form.append(image.formPart(name: "pic")) }
        let request = HTTPRequest("POST", context.endpoint("/2/statuses/share.json"), form: form)
        let response: HTTPResponse
        if let image = images.first {
            response = try await context.upload(request, of: image, what: "posting", idempotent: false, meaning: Self.meaning)
        } else {
            response = try await context.session.send(request, what: "posting", idempotent: false, meaning: Self.meaning)
        }
        context.progress.completedUnitCount = context.progress.totalUnitCount
        let json = response.json
        guard let id = jsonString(json?["idstr"]) ?? jsonString(json?["id"]) else {
            throw ShareError(.unavailable, "weibo: posting: the answer has no status id")
        }
        let user = jsonString((json?["user"] as? [String: Any])?["idstr"]) ?? jsonString((json?["user"] as? [String: Any])?["id"])
        return [URL(string: "https://weibo.com/\(user ?? "detail")/\(id)")!]
    }

    /// Weibo errors: `{"error": "...", "error_code": N, "request": "..."}`; 21301, 21314–21319,
    /// 21327 and 21332 are refused tokens, 10022–10024 rate limits.
    static func meaning(_ response: HTTPResponse) -> AnswerMeaning {
        let json = response.json
        let code = (json?["error_code"] as? NSNumber)?.intValue ?? (json?["error_code"] as? Int)
        if response.isSuccess, code == nil { return .success }
        switch code ?? 0 {
        case 21301, 21314...21319, 21327, 21332: return .tokenRefused
        case 10022, 10023, 10024: return .rateLimited(retryAfter: ServiceSession.retryAfter(response))
        default: break
        }
        if response.status == 401 { return .tokenRefused }
        if response.status == 429 { return .rateLimited(retryAfter: ServiceSession.retryAfter(response)) }
        let message = (json?["error"] as? String).map { text in code.map { "\(text) (\($0))" } ?? text } ?? response.snippet
        return .failed("HTTP \(response.status): \(message)")
    }
}
