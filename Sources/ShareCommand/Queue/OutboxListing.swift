import Foundation
import Mail
import ShareSheetSystem

/// One thing waiting to be sent, as `share outbox list` prints it and `--json` encodes it: a
/// mail, a text message or a queued share, in one shape.
struct OutboxListing: Encodable {
    /// The id the other actions take.
    var id: String
    /// `mail`, `sms`, or the queue's kind: `airdrop`, `post`, `share-target`.
    var kind: String
    /// `queued`, `sending` or `interrupted` (a text message is always queued).
    var state: String
    /// Addresses, phone numbers, or the device, account or target in words.
    var recipients: [String]
    /// A mail's subject; null for anything else, or a mail without one.
    var subject: String?
    /// A text message's first line, or a share's items; null for a mail.
    var preview: String?
    /// When it was queued (ISO 8601, UTC); null when the id was not made by the outbox.
    var created: String?
    /// Why it waits, as a sentence.
    var reason: String?
    /// The last attempt's error.
    var lastError: String?
    /// An interrupted send was queued again: it may arrive twice.
    var mayArriveTwice: Bool

    /// Why mail and text messages wait, read from the settings now: their outboxes keep the
    /// message as the standard formats have it, with no room for a reason.
    struct Reasons {
        var mail: String
        var message: String

        init(configuration: Configuration?) {
            if let server = configuration?.string("smtp", in: "mail"), !server.isEmpty {
                mail = "It waits for the next send to \(URL(string: server)?.host ?? server)."
            } else {
                mail = "No mail server is set up."
            }
            if configuration?.string("via", in: "message")?.lowercased() == "outbox" {
                message = "Text messages are set to wait in the outbox."
            } else {
                message = "It waits for a phone linked through KDE Connect or an sms: handler."
            }
        }
    }

    init(_ entry: MailOutbox.Entry, reasons: Reasons) {
        self.init(
            id: entry.id, kind: "mail", state: entry.state.rawValue, recipients: entry.recipients,
            subject: entry.subject.isEmpty ? nil : entry.subject, preview: nil)
        reason = reasons.mail
    }

    init(_ entry: MessageOutbox.Entry, reasons: Reasons) {
        let preview = entry.message.body.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        self.init(
            id: entry.id, kind: "sms", state: "queued", recipients: entry.message.recipients, subject: nil,
            preview: preview)
        reason = reasons.message
    }

    init(_ entry: ShareQueue.Entry) {
        let share = entry.share
        self.init(
            id: share.id, kind: share.kind.rawValue, state: entry.state.rawValue, recipients: [share.targetTitle],
            subject: nil, preview: QueueWords.items(of: share))
        created = share.created.ISO8601Format()
        reason = share.reason
        lastError = share.lastError
        mayArriveTwice = share.mayArriveTwice
    }

    private init(id: String, kind: String, state: String, recipients: [String], subject: String?, preview: String?) {
        self.id = id
        self.kind = kind
        self.state = state
        self.recipients = recipients
        self.subject = subject
        self.preview = preview
        created = Self.created(id: id)
        reason = nil
        lastError = nil
        mayArriveTwice = false
    }

    /// The line `outbox list` prints: id, kind, state, who, what; then why and how long ago.
    func line(now: Date) -> String {
        let about = kind == "mail" ? subject ?? "(no subject)" : preview ?? ""
        var line = "\(id)  \(kind)  \(state)  \(recipients.joined(separator: ", "))  \(about)"
        var notes: [String] = []
        // Sentences become clauses of one parenthesis: "(No mail server is set up; 5 min ago)".
        if let reason { notes.append(reason.hasSuffix(".") ? String(reason.dropLast()) : reason) }
        if let lastError, lastError != reason { notes.append("last try: \(lastError)") }
        if state == "interrupted" { notes.append("interrupted mid-send: it may have arrived") }
        if mayArriveTwice { notes.append("sent again after an interrupted send: it may arrive twice") }
        if let created, let date = try? Date(created, strategy: .iso8601) {
            notes.append(QueueWords.age(since: date, now: now))
        }
        if !notes.isEmpty { line += "  (" + notes.joined(separator: "; ") + ")" }
        return line + "\n"
    }

    /// Both outboxes name a message after the Unix time it was written (Maildir's
    /// `SECONDS.M…`, and `sms-SECONDS.M…`).
    private static func created(id: String) -> String? {
        let name = id.hasPrefix("sms-") ? id.dropFirst(4) : Substring(id)
        guard let dot = name.firstIndex(of: "."), let seconds = Int(name[..<dot]), seconds > 0 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds)).ISO8601Format()
    }

    // Every key present, null when empty: one shape for every kind.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(kind, forKey: .kind)
        try container.encode(state, forKey: .state)
        try container.encode(recipients, forKey: .recipients)
        try container.encode(subject, forKey: .subject)
        try container.encode(preview, forKey: .preview)
        try container.encode(created, forKey: .created)
        try container.encode(reason, forKey: .reason)
        try container.encode(lastError, forKey: .lastError)
        try container.encode(mayArriveTwice, forKey: .mayArriveTwice)
    }

    private enum CodingKeys: String, CodingKey {
        case id, kind, state, recipients, subject, preview, created, reason, lastError, mayArriveTwice
    }
}
