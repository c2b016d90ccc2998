import Foundation
import ShareSheet
import ShareSheetSystem

/// What every service's poster gets: the session that sends, the API address, the settings,
/// the token, and the progress to report.
struct PostingContext: Sendable {
    let session: ServiceSession
    let base: URL
    let configuration: Configuration
    let token: String
    let progress: Progress
    /// The `Idempotency-Key` to send, for a service that takes one: a queued post's, kept with
    /// it so every attempt names the same post; nil makes one.
    var idempotencyKey: String? = nil

    var service: SocialService { session.service }

    /// `base` + `path`, keeping any path the base has (`https://host/v21.0` + `/me/feed`).
    func endpoint(_ path: String) -> URL {
        URL(string: base.absoluteString + (path.hasPrefix("/") ? path : "/" + path))!
    }

    /// A service setting from the service's configuration group.
    func setting(_ key: String) -> String? {
        configuration.string(key, in: service.configurationGroup).flatMap { $0.isEmpty ? nil : $0 }
    }
}

extension PostingContext {
    /// Counts the progress in bytes when files go up: their sizes plus one unit for each other
    /// request (`steps`), so a terminal shows "12 MB of 20 MB" and a rate. Without files it
    /// counts the `steps` alone.
    /// - Throws: `ShareError(.noInput)` naming a file that is gone.
    func countProgress(uploading attachments: [SocialAttachment], steps: Int64) throws {
        guard !attachments.isEmpty else {
            progress.totalUnitCount = max(steps, 1)
            return
        }
        var bytes: Int64 = 0
        for attachment in attachments { bytes += Int64(try attachment.size()) }
        progress.kind = .file
        progress.isUpload = true
        progress.totalUnitCount = bytes + steps
    }

    /// Sends `request`, the upload of `attachment`, with its bytes counted into the progress as
    /// they go; once answered the progress stands at the whole file (a retry starts it over).
    func upload(
        _ request: HTTPRequest, of attachment: SocialAttachment, what: String, idempotent: Bool,
        meaning: (HTTPResponse) -> AnswerMeaning
    ) async throws -> HTTPResponse {
        var request = request
        let size = Int64(try attachment.size())
        let base = progress.completedUnitCount
        request.uploadProgress = HTTPRequest.UploadProgress(progress: progress, base: base, limit: size)
        let response = try await session.send(request, what: what, idempotent: idempotent, meaning: meaning)
        progress.completedUnitCount = base + size
        return response
    }
}

/// Posts over one service's HTTP API.
protocol Poster: Sendable {
    /// Posts and returns the addresses of what was posted.
    func post(_ post: SocialPost, context: PostingContext) async throws -> [URL]
}

extension SocialService {
    /// The poster for this service's API.
    var poster: any Poster {
        switch self {
        case .mastodon: return MastodonPoster()
        case .twitter: return XPoster()
        case .facebook: return FacebookPoster()
        case .weibo: return WeiboPoster()
        case .flickr: return FlickrPoster()
        case .vimeo: return VimeoPoster()
        }
    }
}

extension HTTPResponse {
    /// A URL member of the JSON body, or nil.
    func jsonURL(_ keys: String...) -> URL? {
        guard let json else { return nil }
        for key in keys { if let text = json[key] as? String, let url = URL(string: text) { return url } }
        return nil
    }
}

/// The value of a JSON member that may be a string or a number, as text.
func jsonString(_ value: Any?) -> String? {
    switch value {
    case let text as String: return text
    case let number as NSNumber: return number.stringValue
    case let number as Int: return String(number)
    default: return nil
    }
}
