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
