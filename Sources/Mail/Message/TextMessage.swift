import Foundation
import ShareSheet

/// A text message (SMS, or MMS with attachments) before it is handed on.
public struct TextMessage: Sendable, Codable, Equatable {
    /// Phone numbers (`+15551234567`, or a local number).
    public var recipients: [String]
    /// The text.
    public var body: String
    /// Files to send along (MMS), where the transport carries them.
    public var attachments: [URL]

    /// Describes a message.
    public init(recipients: [String], body: String, attachments: [URL] = []) {
        self.recipients = recipients
        self.body = body
        self.attachments = attachments
    }

    /// The `sms:` URL of RFC 5724: `sms:` recipients separated by commas, then `?body=` with
    /// the text percent-encoded as UTF-8 (only unreserved characters stay as they are).
    public var smsURL: String {
        let numbers = recipients.map(Self.normalizedNumber).joined(separator: ",")
        guard !body.isEmpty else { return "sms:" + numbers }
        return "sms:" + numbers + "?body=" + Self.percentEncoded(body)
    }

    /// A number as an RFC 3966 telephone-subscriber: visual separators and spaces removed.
    static func normalizedNumber(_ number: String) -> String {
        let trimmed = number.trimmingCharacters(in: .whitespaces)
        let plus = trimmed.hasPrefix("+") ? "+" : ""
        return plus + trimmed.filter { $0.isASCII && $0.isNumber }
    }

    /// RFC 3986 percent-encoding of UTF-8, keeping only the unreserved characters.
    static func percentEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.append(Character(UnicodeScalar(byte)))
            default:
                result += String(format: "%%%02X", byte)
            }
        }
        return result
    }

    /// Reads an `sms:` URL (RFC 5724): its recipients and `body`.
    static func parse(smsURL: String) -> (recipients: [String], body: String?) {
        guard let colon = smsURL.firstIndex(of: ":") else { return ([], nil) }
        var rest = smsURL[smsURL.index(after: colon)...]
        if rest.hasPrefix("//") { rest = rest.dropFirst(2) }
        let pieces = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let recipients = (pieces.first ?? "").split(separator: ",").map { part -> String in
            // Drop URI parameters such as ;phone-context=.
            let number = part.split(separator: ";").first.map(String.init) ?? ""
            return number.removingPercentEncoding ?? number
        }.filter { !$0.isEmpty }
        var body: String?
        if pieces.count > 1 {
            for pair in pieces[1].split(separator: "&") {
                let keyValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                if keyValue.count == 2, keyValue[0].lowercased() == "body" {
                    body = String(keyValue[1]).removingPercentEncoding
                }
            }
        }
        return (recipients, body)
    }
}
