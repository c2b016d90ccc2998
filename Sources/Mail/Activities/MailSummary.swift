import Foundation
import ShareSheet

/// What a person reads before a mail leaves: the recipients, the subject, each attachment with
/// its size, and where the message goes (a server, the outbox, the desktop's mail program).
/// Shown as Mail's interface confirmation ("Send? [Y/n]" in the terminal sheet).
enum MailSummary {
    /// The summary's lines, "To: ana@example.com" first.
    static func lines(of message: MailMessage, destination: String?) -> [String] {
        var lines = ["To: " + message.to.joined(separator: ", ")]
        if !message.cc.isEmpty { lines.append("Cc: " + message.cc.joined(separator: ", ")) }
        if !message.bcc.isEmpty { lines.append("Bcc: " + message.bcc.joined(separator: ", ")) }
        lines.append("Subject: " + (message.subject.isEmpty ? "(none)" : message.subject))
        if !message.attachments.isEmpty {
            let described = message.attachments.map { attachment in
                size(of: attachment).map { "\(attachment.filename) (\(ByteCountFormat.string($0)))" } ?? attachment.filename
            }
            lines.append("Attachments: " + described.joined(separator: ", "))
        }
        if let destination { lines.append(destination) }
        return lines
    }

    /// Where these settings send a message, in words; nil when the settings cannot be read (the
    /// send then fails and says why).
    static func destination(_ settings: MailSettings?) -> String? {
        guard let settings else { return nil }
        if settings.handOff { return "Via: the desktop's mail program" }
        if settings.smtp != nil { return "Server: " + settings.serverName }
        return "Outbox: " + settings.outbox.folder.path + " (no mail server is set up)"
    }

    /// The attachment's size in bytes; nil for a file that cannot be read now.
    static func size(of attachment: MailAttachment) -> Int64? {
        switch attachment.content {
        case .data(let data): return Int64(data.count)
        case .file(let url):
            return (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value
        }
    }
}
