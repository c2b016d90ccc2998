import Foundation
import ShareSheet
import ShareSheetSystem

/// Composes and sends an e-mail without the sheet: the `MFMailComposeViewController`
/// equivalent (seed 000, "Send Email"), delivered the way the configuration says (SMTP, the
/// outbox, or the desktop's mail program).
///
/// ```swift
/// let mail = MailComposer()
/// mail.setToRecipients(["ana@example.com"])
/// mail.setSubject("Q3 report")
/// mail.setMessageBody("<p>Here it is.</p>", isHTML: true)
/// try mail.addAttachment(fileURL: reportURL)
/// let result = try mail.send()
/// ```
public final class MailComposer {
    /// The message so far.
    public private(set) var message = MailMessage()
    private var settingsOverride: MailSettings?
    /// The host whose configuration, outbox and password variables are used when no settings
    /// were given: this process's by default.
    public var hostEnvironment: HostEnvironment = .process

    /// True when mail can be sent: always, since the outbox keeps what cannot go out now.
    public static func canSendMail() -> Bool { true }

    /// A composer that delivers with `settings`, or with the user's configuration when nil.
    public init(settings: MailSettings? = nil) { settingsOverride = settings }

    /// Sets the To recipients (`addr@host` or `Name <addr@host>`).
    public func setToRecipients(_ recipients: [String]?) { message.to = recipients ?? [] }
    /// Sets the Cc recipients.
    public func setCcRecipients(_ recipients: [String]?) { message.cc = recipients ?? [] }
    /// Sets the Bcc recipients.
    public func setBccRecipients(_ recipients: [String]?) { message.bcc = recipients ?? [] }
    /// Sets the sender, overriding the configuration's `from=`.
    public func setPreferredSendingEmailAddress(_ address: String) { message.from = address }
    /// Sets the subject.
    public func setSubject(_ subject: String) { message.subject = subject }

    /// Sets the body; HTML bodies are sent with a plain-text alternative made from them.
    public func setMessageBody(_ body: String, isHTML: Bool) {
        if isHTML {
            message.htmlBody = body
            message.body = Self.plainText(fromHTML: body)
        } else {
            message.htmlBody = nil
            message.body = body
        }
    }

    /// Attaches bytes with a MIME type and the file name the recipient sees.
    public func addAttachmentData(_ data: Data, mimeType: String, fileName: String) {
        message.attachments.append(MailAttachment(content: .data(data), filename: fileName, mimeType: mimeType))
    }

    /// Attaches a file, streamed when the message is written; the type comes from the file.
    /// - Throws: `ShareError(.noInput)` when it is not a readable file.
    public func addAttachment(fileURL: URL, mimeType: String? = nil, fileName: String? = nil) throws {
        guard FileManager.default.isReadableFile(atPath: fileURL.path) else {
            throw ShareError(.noInput, "\(fileURL.lastPathComponent): no such file or not readable")
        }
        let content = MailContent(items: [fileURL])
        var attachment = content.attachments[0]
        if let mimeType { attachment.mimeType = mimeType }
        if let fileName { attachment.filename = fileName }
        message.attachments.append(attachment)
    }

    /// Delivers the message: sent over SMTP, queued in the outbox, or handed to the mail program.
    /// - Throws: `ShareError` (see `MailDelivery.deliver`).
    public func send(progress: Progress? = nil) throws -> MailResult {
        let settings = try settingsOverride ?? MailSettings(host: hostEnvironment)
        if settings.handOff { return try MailHandOff.open(message) }
        return try MailDelivery(settings: settings).deliver(message, progress: progress)
    }

    static func plainText(fromHTML html: String) -> String {
        var text = html.replacingOccurrences(of: "<br>", with: "\n").replacingOccurrences(of: "</p>", with: "\n\n")
        while let open = text.range(of: "<"), let close = text.range(of: ">", range: open.upperBound..<text.endIndex) {
            text.removeSubrange(open.lowerBound..<close.upperBound)
        }
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: entity, with: character)
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Hands a message to the desktop's mail program as a `mailto:` URL (RFC 6068).
///
/// The mail programs known to read `attach=` parameters in a `mailto:` URL (Evolution, KMail,
/// Claws Mail, Geary) get the attachments that way, as absolute paths; any other program
/// (Thunderbird's `mailto:` handler among them) gets their paths listed at the end of the body.
enum MailHandOff {
    /// Desktop file IDs of the `x-scheme-handler/mailto` applications that take `attach=PATH`.
    static let attachingPrograms: Set<String> = [
        "org.gnome.Evolution.desktop", "evolution.desktop", "org.kde.kmail2.desktop", "org.kde.kmail.desktop",
        "kmail.desktop", "kmail2.desktop", "claws-mail.desktop", "org.claws_mail.Claws-Mail.desktop",
        "org.gnome.Geary.desktop", "geary.desktop",
    ]

    /// True when the application with desktop file ID `id` accepts `attach=` in `mailto:`.
    static func acceptsAttachments(handlerID id: String?) -> Bool {
        guard let id else { return false }
        return attachingPrograms.contains(id)
    }

    /// The `mailto:` URL for `message`: recipients, cc, bcc, subject and body. With
    /// `attachInURL`, every attachment that is a file becomes an `attach=` parameter (its path,
    /// percent-encoded); without it, the paths are listed at the end of the body.
    static func url(for message: MailMessage, attachInURL: Bool = false) -> String {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$'()*:@/")
        func encoded(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: allowed) ?? "" }
        func addresses(_ list: [String]) -> String { list.compactMap { Mailbox($0)?.address }.map(encoded).joined(separator: ",") }
        var body = message.body
        let files = message.attachments.compactMap { attachment -> String? in
            if case .file(let url) = attachment.content { return url.path }
            return nil
        }
        if !files.isEmpty, !attachInURL {
            body += (body.isEmpty ? "" : "\n\n") + "Attachments:\n" + files.joined(separator: "\n")
        }
        var query: [String] = []
        if !message.cc.isEmpty { query.append("cc=" + addresses(message.cc)) }
        if !message.bcc.isEmpty { query.append("bcc=" + addresses(message.bcc)) }
        if !message.subject.isEmpty { query.append("subject=" + encoded(message.subject)) }
        if !body.isEmpty { query.append("body=" + encoded(body.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n"))) }
        if attachInURL { query += files.map { "attach=" + encoded($0) } }
        return "mailto:" + addresses(message.to) + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
    }

    /// Writes every in-memory attachment into a file of its name in a new private folder under
    /// the temporary directory (atomically), so the mail program can read it after we exit.
    static func materialized(_ message: MailMessage) throws -> MailMessage {
        var message = message
        var folder: URL?
        for index in message.attachments.indices {
            guard case .data(let data) = message.attachments[index].content else { continue }
            if folder == nil {
                let made = FileManager.default.temporaryDirectory
                    .appendingPathComponent("sharesheet-mailto-\(UUID().uuidString)", isDirectory: true)
                do {
                    try FileManager.default.createDirectory(
                        at: made, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                } catch {
                    throw ShareError(.ioError, "Mail: cannot make a folder for the attachments: \(error.localizedDescription)")
                }
                folder = made
            }
            var name = message.attachments[index].filename.replacingOccurrences(of: "/", with: "_")
            if name.isEmpty || name == "." || name == ".." { name = "attachment" }
            var file = folder!.appendingPathComponent(name)
            var counter = 1
            while FileManager.default.fileExists(atPath: file.path) {
                counter += 1
                let base = (name as NSString).deletingPathExtension, ext = (name as NSString).pathExtension
                file = folder!.appendingPathComponent("\(base)-\(counter)" + (ext.isEmpty ? "" : ".\(ext)"))
            }
            do { try data.write(to: file, options: .atomic) } catch {
                throw ShareError(.ioError, "Mail: cannot write \(name): \(error.localizedDescription)")
            }
            message.attachments[index].content = .file(file)
        }
        return message
    }

    /// Hands `message` to the registered mail program.
    /// - Returns: the result, and a sentence saying how the attachments travelled (nil without any).
    static func handOff(_ message: MailMessage) throws -> (result: MailResult, note: String?) {
        do { try message.validate() } catch { throw ShareError(.badData, "Mail: \(error)") }
        let message = try materialized(message)
        let handler = DesktopLauncher.handlerID(forScheme: "mailto")
        let attach = acceptsAttachments(handlerID: handler)
        let link = url(for: message, attachInURL: attach)
        try DesktopLauncher.open(link, what: "Mail")
        var note: String?
        if !message.attachments.isEmpty {
            let program = handler.map { ($0 as NSString).deletingPathExtension } ?? "the mail program"
            note = attach
                ? "attachments handed to \(program) as attach= parameters"
                : "\(program) takes no attachments in mailto: links; their paths are listed in the body"
        }
        return (.handedOff(URL(string: link)!), note)
    }

    static func open(_ message: MailMessage) throws -> MailResult { try handOff(message).result }
}
