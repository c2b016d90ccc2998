import Foundation
import ShareSheet
import ShareSheetSystem

/// A service ShareSheet posts to.
public enum SocialService: String, CaseIterable, Sendable, CustomStringConvertible {
    case twitter, facebook, weibo, flickr, vimeo, mastodon

    /// The service named by `name`: the CLI name (`twitter`), or `x`.
    public init?(named name: String) {
        let lowered = name.lowercased()
        if lowered == "x" { self = .twitter; return }
        self.init(rawValue: lowered)
    }

    /// The activity type that posts to it.
    public var activityType: ActivityType {
        switch self {
        case .twitter: return .postToTwitter
        case .facebook: return .postToFacebook
        case .weibo: return .postToWeibo
        case .flickr: return .postToFlickr
        case .vimeo: return .postToVimeo
        case .mastodon: return .postToMastodon
        }
    }

    /// The service for an activity type.
    public init?(activityType: ActivityType) {
        guard let service = Self.allCases.first(where: { $0.activityType == activityType }) else { return nil }
        self = service
    }

    /// The name people know it by, used in messages.
    public var displayName: String {
        switch self {
        case .twitter: return "X"
        case .facebook: return "Facebook"
        case .weibo: return "Weibo"
        case .flickr: return "Flickr"
        case .vimeo: return "Vimeo"
        case .mastodon: return "Mastodon"
        }
    }

    public var description: String { rawValue }

    /// The configuration group with its settings (`[mastodon]`).
    public var configurationGroup: String { rawValue }

    /// How the service counts a post's text.
    public var countingRule: CharacterCounter.Rule {
        switch self {
        case .twitter: return .xWeighted
        case .mastodon: return .mastodon(urlLength: 23)
        case .weibo: return .weibo
        case .facebook, .flickr, .vimeo: return .graphemes
        }
    }

    /// The longest text the service takes, in its own count; nil when there is no limit to show.
    public var defaultLimit: Int? {
        switch self {
        case .twitter: return 280
        case .mastodon: return 500
        case .weibo: return 140
        case .facebook: return 63_206
        case .flickr, .vimeo: return nil
        }
    }

    /// The documented API's address, used unless the configuration names another.
    public var defaultAPIBase: URL {
        switch self {
        case .twitter: return URL(string: "https://api.x.com")!
        case .facebook: return URL(string: "https://graph.facebook.com/v21.0")!
        case .weibo: return URL(string: "https://api.weibo.com")!
        case .flickr: return URL(string: "https://up.flickr.com")!
        case .vimeo: return URL(string: "https://api.vimeo.com")!
        case .mastodon: return URL(string: "https://mastodon.social")!
        }
    }

    /// The API address: `api=` (or `instance=` for Mastodon) in the service's group, else the default.
    public func apiBase(in configuration: Configuration) -> URL {
        let keys = self == .mastodon ? ["instance", "api"] : ["api"]
        for key in keys {
            if let value = configuration.string(key, in: configurationGroup), let url = Self.baseURL(value) { return url }
        }
        return defaultAPIBase
    }

    /// `mastodon.example` or `https://mastodon.example/` as a base URL without a trailing slash.
    static func baseURL(_ value: String) -> URL? {
        var text = value.trimmingCharacters(in: .whitespaces)
        if text.isEmpty { return nil }
        if !text.contains("://") { text = "https://" + text }
        while text.hasSuffix("/") { text.removeLast() }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            url.host != nil
        else { return nil }
        return url
    }

    /// True when the service has a web page that takes a post without an account.
    public var hasWebSharePage: Bool {
        switch self {
        case .twitter, .facebook, .weibo, .mastodon: return true
        case .flickr, .vimeo: return false
        }
    }

    /// Why the service cannot post without an account, for services without a share page, with
    /// the account to add.
    var accountRequired: Unavailability {
        noAccount("\(displayName) has no web share page, so it needs an account")
    }

    /// `reason`, fixed by adding an account for this service.
    func noAccount(_ reason: String) -> Unavailability {
        Unavailability(reason, setting: accountSetting, fix: .addAccount)
    }

    /// The setting an account is: group `accounts`, the service as key.
    public var accountSetting: ShareError.Setting { ShareError.Setting(group: "accounts", rawValue) }

    /// The web page that posts `text` and `link` for a person signed in in their browser.
    /// - Parameter instance: the Mastodon instance whose share page to open.
    public func webSharePage(text: String, link: URL?, instance: URL? = nil) -> URL? {
        var components: URLComponents
        var query: [URLQueryItem]
        switch self {
        case .twitter:
            components = URLComponents(string: "https://x.com/intent/post")!
            query = [URLQueryItem(name: "text", value: text)]
            if let link { query.append(URLQueryItem(name: "url", value: link.absoluteString)) }
        case .facebook:
            // The sharer takes a link only; Facebook ignores any text given to it.
            guard let link else { return nil }
            components = URLComponents(string: "https://www.facebook.com/sharer/sharer.php")!
            query = [URLQueryItem(name: "u", value: link.absoluteString)]
        case .weibo:
            components = URLComponents(string: "https://service.weibo.com/share/share.php")!
            query = [URLQueryItem(name: "title", value: text)]
            if let link { query.append(URLQueryItem(name: "url", value: link.absoluteString)) }
        case .mastodon:
            let base = instance ?? defaultAPIBase
            components = URLComponents(url: base.appendingPathComponent("share"), resolvingAgainstBaseURL: false)!
            let whole = [text, link?.absoluteString].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
            query = [URLQueryItem(name: "text", value: whole)]
        case .flickr, .vimeo:
            return nil
        }
        components.percentEncodedQuery = query.map { item in
            "\(item.name)=\(FormEncoding.percentEncode(item.value ?? ""))"
        }.joined(separator: "&")
        return components.url
    }
}

/// RFC 3986 percent-encoding of everything but the unreserved characters, as OAuth 1.0a and
/// form bodies need it.
enum FormEncoding {
    private static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)

    static func percentEncode(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            if unreserved.contains(byte) {
                result.append(Character(UnicodeScalar(byte)))
            } else {
                result += String(format: "%%%02X", byte)
            }
        }
        return result
    }

    /// `a=1&b=2`, each name and value percent-encoded.
    static func body(_ fields: [(String, String)]) -> Data {
        Data(fields.map { "\(percentEncode($0.0))=\(percentEncode($0.1))" }.joined(separator: "&").utf8)
    }
}
