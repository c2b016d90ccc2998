import Foundation

/// OAuth 1.0a request signing with HMAC-SHA1 (RFC 5849 section 3.4), as Flickr requires.
public struct OAuth1Signer: Sendable {
    /// The client (consumer) key and secret.
    public var consumerKey: String
    public var consumerSecret: String
    /// The token and its secret.
    public var token: String
    public var tokenSecret: String

    /// Makes a signer for one client and token.
    public init(consumerKey: String, consumerSecret: String, token: String, tokenSecret: String) {
        self.consumerKey = consumerKey
        self.consumerSecret = consumerSecret
        self.token = token
        self.tokenSecret = tokenSecret
    }

    /// The `oauth_*` protocol parameters for one request, before the signature.
    public func protocolParameters(nonce: String, timestamp: String) -> [(String, String)] {
        [
            ("oauth_consumer_key", consumerKey), ("oauth_token", token), ("oauth_signature_method", "HMAC-SHA1"),
            ("oauth_timestamp", timestamp), ("oauth_nonce", nonce), ("oauth_version", "1.0"),
        ]
    }

    /// The signature base string (section 3.4.1): method, base string URI, normalized parameters.
    /// - Parameters:
    ///   - url: the request URL; its query parameters are signed too.
    ///   - parameters: form-encoded body parameters and protocol parameters, decoded.
    public static func baseString(method: String, url: URL, parameters: [(String, String)]) -> String {
        var all = parameters
        if let components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            for pair in (components.percentEncodedQuery ?? "").split(separator: "&", omittingEmptySubsequences: true) {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = decodeQueryComponent(String(parts[0]))
                let value = parts.count > 1 ? decodeQueryComponent(String(parts[1])) : ""
                all.append((name, value))
            }
        }
        // Section 3.4.1.3.2: encode, then sort by name, then by value.
        let encoded: [(name: String, value: String)] = all.map { pair in
            (FormEncoding.percentEncode(pair.0), FormEncoding.percentEncode(pair.1))
        }
        let sorted = encoded.sorted { left, right in
            left.name == right.name ? left.value < right.value : left.name < right.name
        }
        let normalized = sorted.map { pair in pair.name + "=" + pair.value }.joined(separator: "&")
        let parts: [String] = [method.uppercased(), baseStringURI(url), normalized]
        return parts.map(FormEncoding.percentEncode).joined(separator: "&")
    }

    /// Section 3.4.1.2: scheme and host in lowercase, the port only when it is not the default,
    /// the path, no query or fragment.
    static func baseStringURI(_ url: URL) -> String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let scheme = (components?.scheme ?? "http").lowercased()
        let host = (components?.host ?? "").lowercased()
        var text = "\(scheme)://\(host)"
        if let port = components?.port, !(scheme == "http" && port == 80), !(scheme == "https" && port == 443) {
            text += ":\(port)"
        }
        let path = components?.percentEncodedPath ?? ""
        return text + (path.isEmpty ? "/" : path)
    }

    /// `+` is a space in a form-encoded query, then percent-decoding.
    private static func decodeQueryComponent(_ text: String) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    /// The HMAC-SHA1 signature (section 3.4.2) of a base string, in base64.
    public static func signature(baseString: String, consumerSecret: String, tokenSecret: String) -> String {
        let key = FormEncoding.percentEncode(consumerSecret) + "&" + FormEncoding.percentEncode(tokenSecret)
        return Digest.hmacSHA1(key: Data(key.utf8), message: Data(baseString.utf8)).base64EncodedString()
    }

    /// The `Authorization: OAuth …` header for a request.
    /// - Parameters:
    ///   - bodyParameters: form fields that are signed (for a multipart upload, the fields other
    ///     than the file, as Flickr's upload API asks).
    public func authorizationHeader(
        method: String, url: URL, bodyParameters: [(String, String)], nonce: String = OAuth1Signer.makeNonce(),
        timestamp: String = String(Int(Date().timeIntervalSince1970)), realm: String? = nil
    ) -> String {
        let protocolParameters = protocolParameters(nonce: nonce, timestamp: timestamp)
        let base = Self.baseString(method: method, url: url, parameters: bodyParameters + protocolParameters)
        let signature = Self.signature(baseString: base, consumerSecret: consumerSecret, tokenSecret: tokenSecret)
        var fields = realm.map { ["realm=\"\($0)\""] } ?? []
        fields += (protocolParameters + [("oauth_signature", signature)]).map {
            "\(FormEncoding.percentEncode($0.0))=\"\(FormEncoding.percentEncode($0.1))\""
        }
        return "OAuth " + fields.joined(separator: ", ")
    }

    /// A random nonce of letters and digits.
    public static func makeNonce() -> String {
        UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }
}
