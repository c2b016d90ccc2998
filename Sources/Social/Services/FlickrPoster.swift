import CurlClient
import Foundation
import ShareSheet

/// Flickr: each photo or video through `POST /services/upload/` (multipart), signed with OAuth
/// 1.0a HMAC-SHA1 over every field except the file. The account's token is
/// `CONSUMER_KEY:CONSUMER_SECRET:TOKEN:TOKEN_SECRET`. Flickr answers
/// `<rsp stat="ok"><photoid>…</photoid></rsp>` or `<rsp stat="fail"><err code=… msg=…/></rsp>`.
struct FlickrPoster: Poster {
    static func signer(from token: String) throws -> OAuth1Signer {
        let parts = token.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 4, parts.allSatisfy({ !$0.isEmpty }) else {
            throw ShareError(
                .badData,
                "flickr: the account's token must be CONSUMER_KEY:CONSUMER_SECRET:TOKEN:TOKEN_SECRET",
                setting: .init(group: "accounts", "flickr"), fix: .addAccount)
        }
        return OAuth1Signer(consumerKey: parts[0], consumerSecret: parts[1], token: parts[2], tokenSecret: parts[3])
    }

    func post(_ post: SocialPost, context: PostingContext) async throws -> [URL] {
        let signer = try Self.signer(from: context.token)
        let media = post.attachments.filter { $0.isImage || $0.isVideo }
        guard !media.isEmpty else { throw ShareError(.noInput, "flickr: nothing to upload: Flickr takes photos and videos") }
        try context.countProgress(uploading: media, steps: 0)
        let title = post.text.split(whereSeparator: \.isNewline).first.map { String($0.prefix(255)) }
        var urls: [URL] = []
        for item in media {
            var fields: [(String, String)] = [("title", title ?? (item.filename as NSString).deletingPathExtension)]
            if !post.text.isEmpty { fields.append(("description", post.text)) }
            if let isPublic = context.setting("is_public") { fields.append(("is_public", isPublic)) }
            let url = context.endpoint("/services/upload/")
            let authorization = signer.authorizationHeader(method: "POST", url: url, bodyParameters: fields)
            let form = fields.map { CurlFormPart.field(name: $0.0, value: $0.1) } + [item.formPart(name: "photo")]
            let request = HTTPRequest("POST", url, headers: [("Authorization", authorization)], form: form)
            let response = try await context.upload(
                request, of: item, what: "uploading \(item.filename)", idempotent: false, meaning: Self.meaning)
            guard let id = FlickrAnswer(response.body).photoID else {
                throw ShareError(.unavailable, "flickr: uploading \(item.filename): the answer has no photo id")
            }
            urls.append(URL(string: "https://www.flickr.com/photo.gne?id=\(id)")!)
        }
        return urls
    }

    /// Error 98 (invalid auth token), 99 (insufficient permissions) and 100 (invalid API key)
    /// are refused credentials; 105 (service unavailable) is temporary.
    static func meaning(_ response: HTTPResponse) -> AnswerMeaning {
        if response.status == 401 { return .tokenRefused }
        if response.status == 429 { return .rateLimited(retryAfter: ServiceSession.retryAfter(response)) }
        let answer = FlickrAnswer(response.body)
        if response.isSuccess, answer.isOK { return .success }
        switch answer.errorCode {
        case 98, 99, 100: return .tokenRefused
        default: return .failed("HTTP \(response.status): \(answer.errorMessage ?? response.snippet)")
        }
    }
}

/// The few parts of Flickr's `<rsp>` answer that matter, read without an XML library.
struct FlickrAnswer {
    let text: String
    init(_ body: Data) { text = String(decoding: body, as: UTF8.self) }

    var isOK: Bool { attribute("stat", of: "rsp") == "ok" }
    var photoID: String? {
        guard let open = text.range(of: "<photoid"), let close = text.range(of: "</photoid>", range: open.upperBound..<text.endIndex),
            let start = text.range(of: ">", range: open.upperBound..<close.lowerBound)
        else { return nil }
        let id = text[start.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
        return id.isEmpty ? nil : id
    }
    var errorCode: Int? { attribute("code", of: "err").flatMap(Int.init) }
    var errorMessage: String? { attribute("msg", of: "err") }

    private func attribute(_ name: String, of element: String) -> String? {
        guard let open = text.range(of: "<\(element)"),
            let end = text.range(of: ">", range: open.upperBound..<text.endIndex)
        else { return nil }
        let tag = text[open.upperBound..<end.lowerBound]
        guard let key = tag.range(of: "\(name)=\"") else { return nil }
        guard let quote = tag.range(of: "\"", range: key.upperBound..<tag.endIndex) else { return nil }
        return String(tag[key.upperBound..<quote.lowerBound])
    }
}
