import Foundation
import ShareSheet

/// An e-mail message before it is written out: who it goes to, what it says, what it carries.
///
/// Attachments that are files stay files: they are streamed into the message when it is written,
/// never read into memory whole.
public struct MailMessage: Sendable {
    /// The sender (`ana@example.com` or `Ana Lima <ana@example.com>`); nil lets the delivery
    /// settings decide.
    public var from: String?
    /// The To recipients, each `addr@host` or `Name <addr@host>`.
    public var to: [String]
    /// The Cc recipients.
    public var cc: [String]
    /// The Bcc recipients: they receive the message but appear in no header that is sent.
    public var bcc: [String]
    /// The subject line.
    public var subject: String
    /// The plain-text body.
    public var body: String
    /// An HTML rendering of the body, sent as an alternative to the plain text.
    public var htmlBody: String?
    /// The attachments, in order.
    public var attachments: [MailAttachment]

    /// Describes a message.
    public init(
        from: String? = nil, to: [String] = [], cc: [String] = [], bcc: [String] = [], subject: String = "",
        body: String = "", htmlBody: String? = nil, attachments: [MailAttachment] = []
    ) {
        self.from = from
        self.to = to
        self.cc = cc
        self.bcc = bcc
        self.subject = subject
        self.body = body
        self.htmlBody = htmlBody
        self.attachments = attachments
    }

    /// Every envelope recipient: To, Cc and Bcc.
    public var allRecipients: [String] { to + cc + bcc }

    /// Checks what would otherwise end up in a header: addresses must be RFC 5322 mailboxes and
    /// nothing may hold a line break (which could start a header of its own).
    /// - Throws: `MailError.invalidAddress` or `MailError.lineBreak` naming the value.
    public func validate() throws(MailError) {
        if subject.contains(where: \.isNewline) { throw .lineBreak(field: "subject", value: subject) }
        let fields: [(String, [String])] = [("to", to), ("cc", cc), ("bcc", bcc), ("from", from.map { [$0] } ?? [])]
        for (field, addresses) in fields {
            for address in addresses {
                if address.contains(where: \.isNewline) || address.unicodeScalars.contains(where: { $0.value < 0x20 }) {
                    throw .lineBreak(field: field, value: address)
                }
                guard Mailbox(address) != nil else { throw .invalidAddress(field: field, address: address) }
            }
        }
        if allRecipients.isEmpty { throw .noRecipients }
        for attachment in attachments where attachment.filename.contains(where: \.isNewline) {
            throw .lineBreak(field: "attachment name", value: attachment.filename)
        }
    }
}

/// One attachment: a file streamed from disk, or bytes already in memory.
public struct MailAttachment: Sendable {
    /// Where the bytes come from.
    public enum Content: Sendable {
        /// A local file, read while the message is written.
        case file(URL)
        /// Bytes in memory.
        case data(Data)
    }

    /// The bytes.
    public var content: Content
    /// The file name the recipient sees (any Unicode; encoded per RFC 2231).
    public var filename: String
    /// The MIME type (`image/png`).
    public var mimeType: String

    /// Describes an attachment.
    public init(content: Content, filename: String, mimeType: String) {
        self.content = content
        self.filename = filename
        self.mimeType = mimeType
    }
}

/// An address split into its display name and `local@domain`.
struct Mailbox: Equatable {
    var name: String?
    var address: String

    /// Parses `addr@host` or `Name <addr@host>` (the name may be quoted); nil when it is neither.
    init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var name: String?
        var spec = trimmed
        if trimmed.hasSuffix(">"), let open = trimmed.lastIndex(of: "<") {
            spec = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
            var display = trimmed[..<open].trimmingCharacters(in: .whitespaces)
            if display.count >= 2, display.hasPrefix("\""), display.hasSuffix("\"") {
                display = String(display.dropFirst().dropLast())
            }
            name = display.isEmpty ? nil : display
        }
        guard !spec.contains("<"), !spec.contains(">"), !spec.contains(where: \.isWhitespace),
            spec.allSatisfy(\.isASCII), EmailAddress.isValid(spec)
        else { return nil }
        self.name = name
        self.address = spec
    }
}

/// What went wrong with a message, before or while it was written or sent.
public enum MailError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An address is not an RFC 5322 mailbox.
    case invalidAddress(field: String, address: String)
    /// A header value holds a line break.
    case lineBreak(field: String, value: String)
    /// The message has nobody to go to.
    case noRecipients
    /// An attachment cannot be read.
    case unreadableAttachment(name: String, reason: String)
    /// Writing the message failed.
    case writeFailed(String)

    public var description: String {
        switch self {
        case .invalidAddress(let field, let address): return "\(field): not an e-mail address: \(address)"
        case .lineBreak(let field, let value):
            return "\(field): a line break is not allowed here: \(value.debugDescription)"
        case .noRecipients: return "the message has no recipient"
        case .unreadableAttachment(let name, let reason): return "\(name): \(reason)"
        case .writeFailed(let reason): return "cannot write the message: \(reason)"
        }
    }
}
