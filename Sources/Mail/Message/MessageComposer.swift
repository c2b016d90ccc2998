import Foundation
import ShareSheet
import ShareSheetSystem

/// Composes and sends a text message without the sheet: the `MFMessageComposeViewController`
/// equivalent (seed 000), handed to KDE Connect, the desktop's `sms:` handler, or the outbox.
///
/// ```swift
/// let sms = MessageComposer()
/// sms.recipients = ["+15551234567"]
/// sms.body = "See you at 6"
/// let result = try sms.send()
/// ```
public final class MessageComposer {
    /// The phone numbers to send to.
    public var recipients: [String] = []
    /// The text.
    public var body = ""
    /// Files to send along, where the transport carries them.
    public private(set) var attachments: [URL] = []
    private let settingsOverride: MessageSettings?
    /// The host whose configuration, outbox and search path are used when no settings were
    /// given: this process's by default.
    public var hostEnvironment: HostEnvironment = .process

    /// True when text can be sent: always, since the Messages outbox keeps what cannot go now.
    public static func canSendText() -> Bool { true }

    /// A composer that delivers with `settings`, or with the user's configuration when nil.
    public init(settings: MessageSettings? = nil) { settingsOverride = settings }

    /// Adds a file to send along.
    public func addAttachmentURL(_ url: URL) { attachments.append(url) }

    /// Hands the message on, or queues it.
    /// - Throws: `ShareError` (see `MessageDelivery.deliver`).
    public func send() throws -> MessageResult {
        let settings = try settingsOverride ?? MessageSettings(host: hostEnvironment)
        return try MessageDelivery(settings: settings).deliver(
            TextMessage(recipients: recipients, body: body, attachments: attachments))
    }
}
