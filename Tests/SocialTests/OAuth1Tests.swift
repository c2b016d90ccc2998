import Foundation
import Testing

@testable import Social

/// OAuth 1.0a HMAC-SHA1 signing (Flickr) against the published vectors of RFC 5849.
@Suite("OAuth 1.0a signatures")
struct OAuth1Tests {
    /// RFC 5849 section 3.4.1.1: the request
    /// `POST /request?b5=%3D%253D&a3=a&c%40=&a2=r%20b` with body `c2&a3=2+q`.
    static let rfcURL = URL(string: "http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b")!
    static let rfcParameters: [(String, String)] = [
        ("c2", ""), ("a3", "2 q"),
        ("oauth_consumer_key", "9djdj82h48djs9d2"), ("oauth_token", "kkk9d7dh3k39sjv7"),
        ("oauth_signature_method", "HMAC-SHA1"), ("oauth_timestamp", "137131201"), ("oauth_nonce", "7d8f3e4a"),
    ]
    static let rfcBaseString =
        "POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D%26"
        + "c2%3D%26oauth_consumer_key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_method%3DHMAC-SHA1%26"
        + "oauth_timestamp%3D137131201%26oauth_token%3Dkkk9d7dh3k39sjv7"

    @Test("the signature base string is RFC 5849 section 3.4.1.1's, byte for byte")
    func baseString() {
        #expect(OAuth1Signer.baseString(method: "POST", url: Self.rfcURL, parameters: Self.rfcParameters) == Self.rfcBaseString)
    }

    @Test("the section 3.4 example signs to r6/TJjbCOr97/+UU0NsvSne7s5g= with section 3.1's secrets (errata 2550)")
    func section34Signature() {
        let signature = OAuth1Signer.signature(
            baseString: Self.rfcBaseString, consumerSecret: "j49sk3j29djd", tokenSecret: "dh893hdasih9")
        #expect(signature == "r6/TJjbCOr97/+UU0NsvSne7s5g=")
    }

    @Test("the section 1.2 photo request signs to the RFC's MdpQcU8iPSUjWoN/UDMsK2sui9I=")
    func section12Signature() {
        let url = URL(string: "http://photos.example.net/photos?file=vacation.jpg&size=original")!
        let parameters: [(String, String)] = [
            ("oauth_consumer_key", "dpf43f3p2l4k3l03"), ("oauth_token", "nnch734d00sl2jdk"),
            ("oauth_signature_method", "HMAC-SHA1"), ("oauth_timestamp", "137131202"), ("oauth_nonce", "chapoH"),
        ]
        let base = OAuth1Signer.baseString(method: "GET", url: url, parameters: parameters)
        #expect(OAuth1Signer.signature(baseString: base, consumerSecret: "kd94hf93k423kf44", tokenSecret: "pfkkdhi9sl3r4s00")
            == "MdpQcU8iPSUjWoN/UDMsK2sui9I=")
    }

    @Test("the base string URI keeps a non-default port, drops a default one, lowercases the host")
    func baseStringURI() {
        #expect(OAuth1Signer.baseStringURI(URL(string: "HTTP://Example.COM:80/r%20v/X?id=123")!) == "http://example.com/r%20v/X")
        #expect(OAuth1Signer.baseStringURI(URL(string: "https://www.example.net:8080/?q=1")!) == "https://www.example.net:8080/")
    }

    @Test("the Authorization header carries the parameters and a signature that verifies")
    func header() throws {
        let signer = OAuth1Signer(consumerKey: "key", consumerSecret: "secret", token: "tok", tokenSecret: "toksecret")
        let url = URL(string: "https://up.flickr.com/services/upload/")!
        let header = signer.authorizationHeader(
            method: "POST", url: url, bodyParameters: [("title", "Ünïcode & spaces")], nonce: "n0nce", timestamp: "1700000000")
        #expect(header.hasPrefix("OAuth "))
        var fields: [String: String] = [:]
        for part in header.dropFirst(6).components(separatedBy: ", ") {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            fields[pair[0]] = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")).removingPercentEncoding
        }
        #expect(fields["oauth_nonce"] == "n0nce")
        #expect(fields["oauth_consumer_key"] == "key")
        let base = OAuth1Signer.baseString(
            method: "POST", url: url,
            parameters: [("title", "Ünïcode & spaces")] + signer.protocolParameters(nonce: "n0nce", timestamp: "1700000000"))
        #expect(fields["oauth_signature"] == OAuth1Signer.signature(baseString: base, consumerSecret: "secret", tokenSecret: "toksecret"))
    }
}
