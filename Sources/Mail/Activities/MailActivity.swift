import Foundation
import ShareSheet
import ShareSheetSystem

/// The Mail built-in: composes a MIME message from the items and sends it over SMTP, keeps it
/// in the outbox, or hands it to the desktop's mail program, as the configuration says.
///
/// Fields: To, Cc, Bcc, Subject, Body. The subject starts as the item sources' subject and
/// `--subject` replaces it; `--set smtp=URL` (and `from`, `user`, `starttls`, `cafile`, `via`,
/// `undo-seconds`) override the `[mail]` configuration for one share.
///
/// Before a message goes to the server it waits `undo-seconds` in the outbox (10 where the
/// presenter offers Undo, none elsewhere unless the configuration says): `undo()` takes it back.
public final class MailActivity: BuiltInActivity, InterruptibleActivity, UndoableActivity {
    private var content = MailContent(items: [])
    private let givenSettings: (@Sendable ([String: String]) throws -> MailSettings)?
    private let cancelled = Locked(false)
    /// Set by an interrupt: a cancelled send keeps its message queued.
    private let keepsOnCancel = Locked(false)
    /// The send under way; its value is the message's file in the outbox, once written.
    private var sending: Task<URL?, Never>?
    /// Ends the wait before the send, while the message waits to be undone.
    private var hold: MailHold?
    /// The wait before the send, while it lasts; set by the send's task.
    private let waiting = Locked<WaitingWork?>(nil)
    public private(set) var wasUndone = false

    /// The keys of `--set` that change delivery rather than fill a field.
    static let settingKeys = ["smtp", "from", "user", "starttls", "cafile", "via", "timeout", "undo-seconds"]

    /// How long a message waits to be undone when the configuration does not say: long enough
    /// to notice a wrong address or a missing attachment, where a person can press Undo.
    public static let undoSecondsWhereUndoIsOffered = 10

    /// Makes the Mail activity.
    /// - Parameters:
    ///   - descriptor: the catalog's Mail descriptor.
    ///   - settings: makes the delivery settings from the per-share overrides; defaults to the
    ///     configuration file and outbox of the activity's `hostEnvironment`, read when it sends.
    public init(
        descriptor: BuiltInActivityDescriptor,
        settings: (@Sendable ([String: String]) throws -> MailSettings)? = nil
    ) {
        givenSettings = settings
        super.init(descriptor: descriptor)
    }

    /// Makes the settings: the given closure's, else the host environment's.
    private var loadSettings: @Sendable ([String: String]) throws -> MailSettings {
        if let givenSettings { return givenSettings }
        let host = hostEnvironment
        return { overrides in try MailSettings(host: host, overrides: overrides) }
    }

    public override func prepare(withActivityItems activityItems: [Any]) {
        content = MailContent(items: activityItems)
        isPrepared = true
    }

    /// True after `prepare`: the interface then reads the settings for its From line (the
    /// declared fields, asked before, read nothing).
    private var isPrepared = false

    /// A value given ahead (`--to`, `--subject`) that can never be right: reported as bad data
    /// naming it, instead of asking again.
    private var presetProblem: ShareError? {
        for field in ["to", "cc", "bcc"] {
            guard let value = context.presetValues[field] else { continue }
            let addresses: [String]
            switch value {
            case .list(let list): addresses = list
            default: addresses = value.text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            }
            for address in addresses {
                if address.contains(where: \.isNewline) {
                    return ShareError(.badData, "Mail: \(field): a line break is not allowed in an address: \(address.debugDescription)")
                }
                if Mailbox(address) == nil { return ShareError(.badData, "Mail: \(field): not an e-mail address: \(address)") }
            }
        }
        if let subject = context.presetValues["subject"]?.text, subject.contains(where: \.isNewline) {
            return ShareError(.badData, "Mail: subject: a line break is not allowed: \(subject.debugDescription)")
        }
        return nil
    }

    /// The fields; the delivery keys (`smtp`, `from`…) are the `[mail]` configuration keys.
    public override var presetKeys: Set<String> { ["to", "cc", "bcc", "subject", "body"] }

    public override var activityInterface: ActivityInterface? {
        if presetProblem != nil { return nil }
        func list(_ addresses: [String]) -> InterfaceValue? { addresses.isEmpty ? nil : .list(addresses) }
        let subject = context.subject.flatMap { $0.isEmpty ? nil : $0 } ?? content.subject
        let fields = [
            InterfaceField(id: "to", label: "To", kind: .emailAddresses, isRequired: true, defaultValue: list(content.to)),
            InterfaceField(id: "cc", label: "Cc", kind: .emailAddresses, defaultValue: list(content.cc), isAdvanced: true),
            InterfaceField(id: "bcc", label: "Bcc", kind: .emailAddresses, defaultValue: list(content.bcc), isAdvanced: true),
            InterfaceField(
                id: "subject", label: "Subject", kind: .text,
                defaultValue: subject.map { .text($0.split(whereSeparator: \.isNewline).joined(separator: " ")) }),
            InterfaceField(
                id: "body", label: "Body", kind: .multilineText, defaultValue: content.body.isEmpty ? nil : .text(content.body)),
        ]
        let attachmentNames = content.attachments.map(\.filename)
        var interface = ActivityInterface(
            title: "New Message",
            message: attachmentNames.isEmpty ? nil : "Attachments: " + attachmentNames.joined(separator: ", "),
            fields: fields, submitTitle: "Send",
            validate: { values in
                var problems: [String: String] = [:]
                for field in ["to", "cc", "bcc"] {
                    guard case .list(let addresses)? = values[field] else { continue }
                    let bad = addresses.filter { Mailbox($0) == nil || $0.contains(where: \.isNewline) }
                    if !bad.isEmpty { problems[field] = "not an e-mail address: \(bad.joined(separator: ", "))" }
                }
                if values["subject"]?.text.contains(where: \.isNewline) == true {
                    problems["subject"] = "the subject must be one line"
                }
                return problems
            },
            onSubmit: { [weak self] values in self?.send(values) })
        interface.attachments = content.attachments.map { attachment in
            InterfaceAttachment(
                name: attachment.filename, byteCount: MailSummary.size(of: attachment), type: attachment.mimeType,
                fileURL: { if case .file(let url) = attachment.content { return url } else { return nil } }())
        }
        // The From the receiver will see, said before the message goes: a guessed one too.
        if isPrepared, let settings = summarySettings, !settings.handOff {
            interface.sender = InterfaceSender(address: settings.sender, isGuessed: settings.from == nil)
        }
        // A person who typed the mail reads what will go where before it goes.
        interface.confirmation = { [weak self] values in
            guard let self else { return [] }
            return MailSummary.lines(of: self.message(from: values), destination: MailSummary.destination(self.summarySettings))
        }
        return interface
    }

    /// The settings as the summary names them, read without asking the Secret Service for a
    /// password (the summary only says where the message goes); nil when they cannot be read.
    private var summarySettings: MailSettings? {
        var overrides = overrides
        overrides["user"] = ""
        return try? loadSettings(overrides)
    }

    /// The `--set` values that change delivery (`smtp`, `from`…), by key.
    private var overrides: [String: String] {
        var overrides: [String: String] = [:]
        for key in Self.settingKeys { if let value = context.presetValues[key] { overrides[key] = value.text } }
        return overrides
    }

    /// The message the interface's values make.
    private func message(from values: InterfaceValues) -> MailMessage {
        func addresses(_ id: String) -> [String] {
            switch values[id] {
            case .list(let list)?: return list
            case let value?: return value.text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            case nil: return []
            }
        }
        let body = values["body"]?.text ?? ""
        return MailMessage(
            to: addresses("to"), cc: addresses("cc"), bcc: addresses("bcc"), subject: values["subject"]?.text ?? "",
            body: body, htmlBody: body == content.body ? content.htmlBody : nil, attachments: content.attachments)
    }

    public override var route: ActivityRoute? {
        givenSettings == nil ? MailRoutes.mail(host: hostEnvironment) : nil
    }

    /// The interface's fields; before `prepare` it has no items, so it reads nothing.
    public override var declaredFields: [InterfaceField] { activityInterface?.fields ?? [] }

    public override func perform() {
        if let problem = presetProblem { activityDidFail(problem) } else { activityDidFinish(false) }
    }

    public override func cancel() {
        cancelled.withLock { $0 = true }
        hold?.end(.cancel)
    }

    public var waitingWork: WaitingWork? { waiting.withLock { $0 } }

    public func undo() -> Bool {
        guard let hold, waitingWork != nil else { return false }
        return hold.end(.undo)
    }

    public func proceedNow() { hold?.end(.sendNow) }

    /// A cancel after this keeps the message queued in the outbox instead of dropping it.
    public func keepWorkWhenCancelled() { keepsOnCancel.withLock { $0 = true } }

    /// The message's file once the send has stopped, when it is still in the outbox (neither
    /// taken by the server nor dropped unfinished), to be sent with the outbox.
    public func keptWork() async -> KeptWork? {
        guard let sending, let file = await sending.value, FileManager.default.fileExists(atPath: file.path) else {
            return nil
        }
        return KeptWork(what: "the message", location: file.path, resume: .outbox)
    }

    private func send(_ values: InterfaceValues) {
        let message = message(from: values)
        let overrides = overrides
        let loadSettings = self.loadSettings
        let configurationFile = hostEnvironment.configurationFileDisplayPath
        let cancelled = self.cancelled
        let keepsOnCancel = self.keepsOnCancel
        let progress = self.progress
        let hold = MailHold()
        self.hold = hold
        wasUndone = false
        let unsetHold = context.offersUndo ? Self.undoSecondsWhereUndoIsOffered : 0
        let waiting = self.waiting
        let destinations = message.to + message.cc + message.bcc
        progress.kind = .file  // counted in bytes of the message sent: the command shows size, rate and time left
        progress.isUpload = true  // then the server's answer: the command says it waits for it
        sending = Task.detached { [weak self] in
            let outcome: Result<MailResult, any Error>
            let queued = Locked<URL?>(nil)
            var note: String?
            var server: URL?
            var guessedSender: String?
            do {
                let settings = try loadSettings(overrides)
                server = settings.smtp.map(Self.withoutCredentials)
                if settings.from == nil { guessedSender = settings.sender }
                let holdSeconds = settings.undoSeconds ?? unsetHold
                if settings.handOff {
                    let handedOff = try MailHandOff.handOff(message)
                    note = handedOff.note
                    outcome = .success(handedOff.result)
                } else if holdSeconds > 0 {
                    outcome = .success(
                        try await MailDelivery(settings: settings).deliver(
                            message, holdingFor: holdSeconds, hold: hold, progress: progress,
                            isCancelled: { cancelled.withLock { $0 } }, onQueued: { file in queued.withLock { $0 = file } },
                            onHeld: { deadline in
                                waiting.withLock {
                                    $0 = deadline.map { WaitingWork(what: "the message", destinations: destinations, deadline: $0) }
                                }
                            },
                            keepsOnCancel: { keepsOnCancel.withLock { $0 } }))
                } else {
                    outcome = .success(
                        try MailDelivery(settings: settings).deliver(
                            message, progress: progress, isCancelled: { cancelled.withLock { $0 } },
                            onQueued: { file in queued.withLock { $0 = file } },
                            keepsOnCancel: { keepsOnCancel.withLock { $0 } }))
                }
            } catch {
                outcome = .failure(error)
            }
            await self?.finish(
                outcome, queued: queued.withLock { $0 }, note: note, server: server, guessedSender: guessedSender,
                configurationFile: configurationFile, undone: hold.wasUndone)
            return queued.withLock { $0 }
        }
    }

    /// The SMTP URL without a user or password, for `location`.
    private nonisolated static func withoutCredentials(_ url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        components.user = nil
        components.password = nil
        return components.url ?? url
    }

    private func finish(
        _ outcome: Result<MailResult, any Error>, queued: URL?, note: String? = nil, server: URL? = nil,
        guessedSender: String? = nil, configurationFile: String, undone: Bool = false
    ) {
        hold = nil
        if undone, case .failure(let error as ShareError) = outcome, error.kind == .cancelled {
            // Taken back: nothing was sent; a share session shows the form again.
            wasUndone = true
            return activityDidFail(error)
        }
        switch outcome {
        case .success(.sent(let name, _)):
            returnedItems = ["sent through \(name)"]
            disposition = .sent
            location = server?.absoluteString ?? name
            if let guessedSender {
                // The receiver sees this address: a guess made from the login and host names is
                // said once, with where to set the real one.
                fallback = ActivityFallback(
                    message: "No From address is set up, so the message was sent from \(guessedSender).",
                    setting: .init(group: "mail", "from"), fix: .setSender, path: configurationFile)
            }
            activityDidFinish(true)
        case .success(.queued(let id, let file)):
            returnedItems = [file]
            disposition = .queued
            location = file.path
            fallback = ActivityFallback(
                message: "No mail server is set up, so the message waits in the outbox (\(id)).",
                setting: .init(group: "mail", "smtp"), fix: .flushOutbox, path: configurationFile)
            activityDidFinish(true)
        case .success(.handedOff(let url)):
            if let note { returnedItems = [url, note] } else { returnedItems = [url] }
            disposition = .handedOff
            location = url.absoluteString
            activityDidFinish(true)
        case .failure(let error as ShareError):
            if error.kind == .cancelled { return activityDidFinish(false) }
            // The message is safe in the outbox: say where.
            if let queued, FileManager.default.fileExists(atPath: queued.path) {
                returnedItems = [queued]
                disposition = .queued
                location = queued.path
            }
            activityDidFail(error)
        case .failure(let error):
            activityDidFail(ShareError(.ioError, "Mail: \(error)"))
        }
    }
}
