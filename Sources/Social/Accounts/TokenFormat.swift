import Foundation
import ShareSheet

/// What a token must look like to be kept, checked by `share accounts add` so that a pasted
/// mistake is refused there, with the reason, instead of failing at the first post.
///
/// Only what the posters really need is checked, not each service's current token shape:
/// - every service: not empty, no whitespace or control characters inside (a token is one word:
///   it goes into an HTTP header or a form field, and a space or newline inside is a paste
///   gone wrong), at most ``maximumLength`` characters (a token is tens to a few hundred
///   characters; more is a whole file pasted by mistake);
/// - Mastodon, X and Vimeo send it as `Authorization: Bearer TOKEN`, whose value RFC 6750 §2.1
///   limits to `b64token`: ASCII letters, digits and `-._~+/`, then optional `=`;
/// - Facebook and Weibo send it as a percent-encoded `access_token` field: anything visible;
/// - Flickr's is `CONSUMER_KEY:CONSUMER_SECRET:TOKEN:TOKEN_SECRET` (`FlickrPoster.signer`).
public enum TokenFormat {
    /// The longest token kept.
    public static let maximumLength = 4096

    /// RFC 6750's `b64token` characters, before the trailing `=`.
    private static let bearerCharacters = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/".unicodeScalars)

    /// `text` without the whitespace around it (the newline that ends a typed or piped line),
    /// when it is a token `service` can post with.
    /// - Throws: `ShareError(.badData)` saying what is wrong, never quoting the token.
    public static func checked(_ text: String, for service: SocialService) throws -> String {
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        func refuse(_ reason: String) -> ShareError { ShareError(.badData, "\(service): the token \(reason); nothing kept") }
        if token.isEmpty { throw refuse("is empty") }
        if token.unicodeScalars.count > maximumLength {
            throw refuse("is \(token.unicodeScalars.count) characters long (at most \(maximumLength)): was a whole file pasted?")
        }
        if token.unicodeScalars.contains(where: { CharacterSet.newlines.contains($0) }) {
            throw refuse("has more than one line")
        }
        if token.unicodeScalars.contains(where: { CharacterSet.whitespaces.contains($0) }) {
            throw refuse("has a space inside")
        }
        if token.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) {
            throw refuse("has a control character inside")
        }
        switch service {
        case .mastodon, .twitter, .vimeo:
            let body = token.unicodeScalars.prefix { $0 != "=" }
            let padding = token.unicodeScalars.dropFirst(body.count)
            guard !body.isEmpty, body.allSatisfy(bearerCharacters.contains), padding.allSatisfy({ $0 == "=" }) else {
                throw refuse("has characters a bearer token cannot have (only letters, digits and - . _ ~ + / then =)")
            }
        case .flickr:
            do {
                _ = try FlickrPoster.signer(from: token)
            } catch {
                throw refuse("must be CONSUMER_KEY:CONSUMER_SECRET:TOKEN:TOKEN_SECRET (four parts, none empty)")
            }
        case .facebook, .weibo:
            break
        }
        return token
    }
}
