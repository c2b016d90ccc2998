import Foundation
import ShareSheet
import ShareSheetSystem

/// What happened to a message.
public enum MailResult: Sendable, Equatable {
    /// The SMTP server accepted it.
    case sent(server: String, messageFile: String)
    /// It waits in the outbox (no server is configured): `share outbox flush` sends it.
    case queued(id: String, file: URL)
    /// The desktop's mail program received it as a `mailto:` URL.
    case handedOff(URL)
}

/// Writes messages into the outbox and sends them: the one path every message takes, whether
/// it comes from the Mail activity, `MailComposer` or `share outbox flush`.
public struct MailDelivery: Sendable {
    /// Where and how to send.
    public var settings: MailSettings

    /// Delivers with `settings`.
    public init(settings: MailSettings) { self.settings = settings }

    /// Writes `message` into the outbox (`tmp/`, then `new/`), then, when a server is
    /// configured, sends it and removes it from the outbox.
    /// - Parameters:
    ///   - message: the message to deliver.
    ///   - progress: counts the bytes sent to the server, when given.
    ///   - isCancelled: asked while the message is written and sent; true stops the work.
    ///   - onQueued: told the queued file as soon as the message is safe in the outbox.
    ///   - keepsOnCancel: asked when the send is cancelled: true keeps the message queued (an
    ///     interrupted command that says where it is) instead of dropping it (a dismissed sheet).
    /// - Returns: `.sent` or `.queued`.
    /// - Throws: `ShareError`: `.badData` for an invalid message; `.temporaryFailure` when the
    ///   server cannot be reached (the message stays queued, and the message says so);
    ///   `.unavailable` when the server refuses the login, TLS or a recipient (also kept);
    ///   `.configuration` when `starttls=required` meets a server without STARTTLS (also kept).
    public func deliver(
        _ message: MailMessage, progress: Progress? = nil,
        isCancelled: @escaping @Sendable () -> Bool = { false }, onQueued: (URL) -> Void = { _ in },
        keepsOnCancel: @escaping @Sendable () -> Bool = { false }
    ) throws -> MailResult {
        do { try message.validate() } catch { throw ShareError(.badData, "Mail: \(error)") }
        let queued = try write(message, isCancelled: isCancelled)
        settings.steps?.say("Mail: spooled to \(queued.path) (\(Self.size(of: queued)) bytes)")
        onQueued(queued)
        guard settings.endpoint != nil else { return .queued(id: queued.lastPathComponent, file: queued) }
        return try send(
            id: queued.lastPathComponent, progress: progress, isCancelled: isCancelled, removeOnCancel: { !keepsOnCancel() })
    }

    /// A file's size in bytes, for what `--verbose` says.
    private static func size(of url: URL) -> Int64 {
        var info = stat()
        return stat(url.path, &info) == 0 ? Int64(info.st_size) : 0
    }

    /// Composes `message` into a complete file in the outbox's `new/`.
    /// - Returns: the queued file.
    func write(_ message: MailMessage, isCancelled: @Sendable () -> Bool = { false }) throws -> URL {
        let outbox = settings.outbox
        let (descriptor, temporary) = try outbox.createTemporary()
        do {
            defer { close(descriptor) }
            try MIMEWriter.write(message, from: message.from ?? settings.sender, to: descriptor)
        } catch {
            unlink(temporary.path)
            switch error {
            case .unreadableAttachment: throw ShareError(.noInput, "Mail: \(error)")
            default: throw ShareError(.ioError, "Mail: \(error)")
            }
        }
        if isCancelled() {
            unlink(temporary.path)
            throw ShareError(.cancelled, "Mail: cancelled")
        }
        return try outbox.enqueue(temporary)
    }

    /// Sends the queued message `id` once: claims it, sends it, removes it when the server took
    /// it, and puts it back in the queue when it did not.
    /// - Parameter removeOnCancel: drop the message when the send is cancelled (a share the
    ///   person dismissed), instead of keeping it queued.
    func send(
        id: String, progress: Progress?, isCancelled: @escaping @Sendable () -> Bool, removeOnCancel: () -> Bool
    ) throws -> MailResult {
        guard let endpoint = settings.endpoint else {
            throw ShareError(
                .unavailable, "Mail: no SMTP server is configured", setting: .init(group: "mail", "smtp"), fix: .configureMailServer)
        }
        guard let claim = try settings.outbox.claim(id) else {
            throw ShareError(.temporaryFailure, "Mail: \(id) is being sent by another process")
        }
        return try send(claim, to: endpoint, progress: progress, isCancelled: isCancelled, removeOnCancel: removeOnCancel)
    }

    /// Sends a claimed message to `endpoint`; see `send(id:progress:isCancelled:removeOnCancel:)`.
    private func send(
        _ claim: MailOutbox.Claim, to endpoint: SMTPEndpoint, progress: Progress?,
        isCancelled: @escaping @Sendable () -> Bool, removeOnCancel: () -> Bool
    ) throws -> MailResult {
        let outbox = settings.outbox
        let id = claim.id
        guard let header = HeaderSection.read(claim.descriptor) else {
            outbox.release(claim)
            throw ShareError(.badData, "Mail: \(id): not a message (no header section)")
        }
        let sender = header.addresses("From").first ?? Mailbox(settings.sender)?.address ?? settings.sender
        let recipients = ["To", "Cc", "Bcc"].flatMap(header.addresses)
        guard !recipients.isEmpty else {
            outbox.release(claim)
            throw ShareError(.badData, "Mail: \(id): the message has no recipient")
        }
        if endpoint.user != nil, endpoint.password == nil {
            outbox.release(claim)
            throw ShareError(
                .unavailable,
                "Mail: \(settings.serverName): no password for \(endpoint.user!) (set SHARESHEET_SMTP_PASSWORD or store it with secret-tool); "
                    + "the message is kept in the outbox as \(id)")
        }
        var info = stat()
        fstat(claim.descriptor, &info)
        let total = Int64(info.st_size) - Int64(header.length) + Int64(header.withoutBcc.count)
        progress?.totalUnitCount = total
        settings.steps?.say(
            "Mail: connecting to \(settings.serverURL) to send \(id) (\(total) bytes) from <\(sender)> to "
                + recipients.map { "<\($0)>" }.joined(separator: ", "))
        do {
            try SMTPTransfer.send(
                file: claim.descriptor, headerLength: header.length, filteredHeader: header.withoutBcc, sender: sender,
                recipients: recipients, endpoint: endpoint, progress: progress, isCancelled: isCancelled)
        } catch {
            if error.isCancelled, removeOnCancel() {
                outbox.finish(claim)
                settings.steps?.say("Mail: cancelled; removed \(id) from the outbox")
                throw ShareError(.cancelled, "Mail: cancelled")
            }
            outbox.release(claim)
            settings.steps?.say("Mail: not sent (\(error)); \(id) is back in the outbox's queue")
            let kept = "the message is kept in the outbox as \(id)"
            if error.isCancelled { throw ShareError(.cancelled, "Mail: cancelled; \(kept)") }
            if error.isTemporary {
                throw ShareError(
                    .temporaryFailure,
                    "Mail: \(settings.serverName) cannot be reached (\(error)); \(kept)", fix: .flushOutbox)
            }
            if error.isStartTLSMissing, settings.startTLS == .required, settings.smtp?.scheme?.lowercased() == "smtp" {
                // Not the server's fault nor the network's: the setting asks for what this
                // server does not have, so it is a configuration error that names the setting.
                throw ShareError(
                    .configuration,
                    "Mail: \(settings.serverName) does not offer STARTTLS, which mail security requires unless set otherwise; "
                        + kept,
                    setting: .init(group: "mail", "starttls"), fix: .chooseMailSecurity)
            }
            if error.isLoginRefused {
                throw ShareError(.unavailable, "Mail: \(settings.serverName) refused the login for \(endpoint.user ?? "?") (\(error)); \(kept)")
            }
            throw ShareError(.unavailable, "Mail: \(settings.serverName): \(error); \(kept)")
        }
        outbox.finish(claim)
        settings.steps?.say("Mail: \(settings.serverName) accepted \(id); removed it from the outbox")
        return .sent(server: settings.serverName, messageFile: id)
    }

    /// The outcome of sending one queued message in `flush()`.
    public struct FlushOutcome: Sendable {
        /// The message's id.
        public var id: String
        /// nil when it was sent; else why it stays queued.
        public var error: ShareError?
    }

    /// Sends every queued message once; those that fail stay queued. Interrupted messages are
    /// left alone (they may have reached the server): `MailOutbox.retry(_:)` re-queues them.
    /// A message another process takes first (another flush running at the same time) is left
    /// to it and has no outcome here: that process sends it and reports it.
    /// - Parameters:
    ///   - progress: told which message is being sent and its bytes, when given.
    ///   - isCancelled: polled while a message is sent; true stops it (it stays queued) and
    ///     leaves the rest queued, with no outcome.
    public func flush(progress: FlushProgress? = nil, isCancelled: @escaping @Sendable () -> Bool = { false }) -> [FlushOutcome] {
        let queued = settings.outbox.entries().filter { $0.state == .queued }
        settings.steps?.say("Mail: \(queued.count) queued message(s) in \(settings.outbox.folder.path)")
        defer { progress?.end() }
        return queued.enumerated().compactMap { index, entry in
            if isCancelled() { return nil }
            let bytes = progress?.start(number: index + 1, of: queued.count)
            do {
                if let endpoint = settings.endpoint {
                    guard let claim = try settings.outbox.claim(entry.id) else { return nil }
                    _ = try send(claim, to: endpoint, progress: bytes, isCancelled: isCancelled, removeOnCancel: { false })
                } else {
                    _ = try send(id: entry.id, progress: bytes, isCancelled: isCancelled, removeOnCancel: { false })
                }
                return FlushOutcome(id: entry.id, error: nil)
            } catch let error as ShareError {
                return FlushOutcome(id: entry.id, error: error)
            } catch {
                return FlushOutcome(id: entry.id, error: ShareError(.ioError, "\(entry.id): \(error)"))
            }
        }
    }
}
