import Foundation
import Mail
import ShareSheet
import ShareSheetSystem
import ShareSheetTerminal

/// `share outbox list|show|flush|retry|remove`: the mail outbox (a Maildir under
/// `$XDG_DATA_HOME/sharesheet/Outbox`) and the Messages outbox that Mail and Message queue into.
enum OutboxCommand: ShareSubcommand {
    static let spec = CommandSpec(
        name: "outbox", summary: "the mail and text messages Mail and Message queued",
        about: "Mail waits in a Maildir under $XDG_DATA_HOME/sharesheet/Outbox when no server is set up or "
            + "it cannot be reached; text messages when nothing could send them.",
        actions: [
            ActionSpec(
                name: "list", summary: "queued mail and text messages, oldest first",
                options: [JSONOutput.jsonOption, JSONOutput.prettyOption]),
            ActionSpec(name: "show", operands: "ID", summary: "a queued message's headers (mail) or text"),
            ActionSpec(
                name: "flush", summary: "send every queued message once; failures stay queued",
                options: [
                    .value("--set", "FIELD=VALUE", "a Mail setting for this flush, such as smtp=URL", repeatable: true),
                    ShareOptions.quiet, ShareOptions.verbose,
                ]),
            ActionSpec(name: "retry", operands: "ID", summary: "queue an interrupted send again"),
            ActionSpec(name: "remove", operands: "ID", summary: "delete a queued message"),
        ],
        examples: ["share outbox flush --set smtp=smtp://127.0.0.1:2525"])

    static func run(_ arguments: [String], context: CommandContext) async throws -> Termination {
        let action = try spec.action(named: arguments.first)
        let parsed = try options(Array(arguments.dropFirst()), for: action)
        let directories = XDGDirectories(environment: context.environment)
        let mailOutbox = MailOutbox(directories: directories)
        let messageOutbox = MessageOutbox(directories: directories)
        let rest = parsed.operands
        var overrides: [String: String] = [:]
        for value in parsed.all("--set") {
            guard let equals = value.firstIndex(of: "="), equals != value.startIndex else {
                throw ShareError(.usage, "--set needs FIELD=VALUE, got '\(value)'")
            }
            overrides[String(value[..<equals])] = String(value[value.index(after: equals)...])
        }
        switch action.name {
        case "list":
            guard rest.isEmpty else { throw ShareError(.usage, "outbox list takes no operands") }
            let listings = mailOutbox.entries().map(Listing.init) + messageOutbox.entries().map(Listing.init)
            if let format = try JSONOutput.format(parsed, command: "outbox list") {
                try JSONOutput.write(listings, format: format, to: context)
                return .success
            }
            // Said in words: no output at all reads like a command that failed to run.
            if listings.isEmpty {
                context.standardOutput.write("The outbox is empty.\n")
                return .success
            }
            context.standardOutput.write(
                listings.map { listing in
                    let about = listing.kind == "mail" ? listing.subject ?? "(no subject)" : listing.preview ?? ""
                    let recipients = listing.recipients.joined(separator: ", ")
                    return "\(listing.id)  \(listing.kind)  \(listing.state)  \(recipients)  \(about)\n"
                }.joined())
            return .success
        case "show":
            let id = try single(rest, action: action.name)
            if let entry = messageOutbox.entries().first(where: { $0.id == id }) {
                context.standardOutput.write(
                    "To: \(entry.message.recipients.joined(separator: ", "))\n\n\(entry.message.body)\n"
                        + entry.message.attachments.map { "Attachment: \($0.path)\n" }.joined())
                return .success
            }
            let entry = try mailOutbox.entry(id)
            let header = try mailOutbox.headerText(of: entry)
            context.standardOutput.write(
                "Id: \(entry.id)\nState: \(entry.state.rawValue)\nFile: \(entry.url.path)\nSize: \(entry.size) bytes\n\n"
                    + header)
            return .success
        case "flush":
            guard rest.isEmpty else { throw ShareError(.usage, "outbox flush takes no operands") }
            let configuration = try Configuration.load(from: directories)
            let messageOutcomes = try await background {
                MessageDelivery(settings: try MessageSettings(configuration: configuration, directories: directories)).flush()
            }
            var failures: [ShareError] = []
            for outcome in messageOutcomes {
                if let error = outcome.error {
                    failures.append(error)
                    context.warn("outbox: kept \(outcome.id): \(error.message)")
                } else {
                    context.standardOutput.write("sent \(outcome.id)\n")
                }
            }
            let queuedMail = mailOutbox.entries().filter { $0.state == .queued }
            if !queuedMail.isEmpty {
                var settings = try MailSettings(
                    configuration: configuration, overrides: overrides, environment: context.environment,
                    directories: directories)
                settings.steps = VerboseLog.make(parsed.flag("--verbose"), context: context)
                let progress = FlushProgress()
                let line = FlushProgressLine.start(progress, quiet: parsed.flag("--quiet"), context: context)
                defer { line?.stop() }
                let delivery = MailDelivery(settings: settings)
                // Ctrl-C stops the message being sent and keeps it and the rest queued.
                let interrupted = Locked(false)
                let watcher = context.catchesInterrupts ? InterruptWatcher { interrupted.withLock { $0 = true } } : nil
                let outcomes = try await background {
                    delivery.flush(progress: progress, isCancelled: { interrupted.withLock { $0 } })
                }
                watcher?.stop()
                line?.stop()
                if interrupted.withLock({ $0 }) {
                    for outcome in outcomes where outcome.error == nil { context.standardOutput.write("sent \(outcome.id)\n") }
                    context.warn(
                        "interrupted: the unsent mail stays in the outbox at \(mailOutbox.folder.appendingPathComponent("new").path); "
                            + "send it with `share outbox flush`")
                    return Termination(status: Termination.dismissedStatus, message: nil)
                }
                for outcome in outcomes {
                    if let error = outcome.error {
                        failures.append(error)
                        context.warn("outbox: kept \(outcome.id): \(error.message)")
                    } else {
                        context.standardOutput.write("sent \(outcome.id)\n")
                    }
                }
            }
            guard let worst = failures.first else { return .success }
            let kind = failures.allSatisfy { $0.kind == .temporaryFailure } ? ShareError.Kind.temporaryFailure : worst.kind
            return Termination(
                status: Termination.status(of: kind), message: "outbox: \(failures.count) message(s) kept in the outbox")
        case "retry":
            try mailOutbox.retry(try single(rest, action: action.name))
            return .success
        case "remove":
            let id = try single(rest, action: action.name)
            if messageOutbox.entries().contains(where: { $0.id == id }) {
                try messageOutbox.remove(id)
            } else {
                try mailOutbox.remove(id)
            }
            return .success
        default:
            preconditionFailure("an action of the spec without a case: \(action.name)")
        }
    }

    /// One queued message, as `outbox list` prints it and `--json` encodes it.
    struct Listing: Encodable {
        /// The id the other actions take.
        var id: String
        /// `mail` or `sms`.
        var kind: String
        /// `queued`, `sending` or `interrupted` (a text message is always queued).
        var state: String
        var recipients: [String]
        /// A mail's subject; null for a text message, or a mail without one.
        var subject: String?
        /// A text message's first line; null for a mail.
        var preview: String?
        /// When it was queued (ISO 8601, UTC), from the time its id begins with; null when the
        /// id was not made by the outbox.
        var created: String?

        init(_ entry: MailOutbox.Entry) {
            self.init(
                id: entry.id, kind: "mail", state: entry.state.rawValue, recipients: entry.recipients,
                subject: entry.subject.isEmpty ? nil : entry.subject, preview: nil)
        }

        init(_ entry: MessageOutbox.Entry) {
            let preview = entry.message.body.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            self.init(
                id: entry.id, kind: "sms", state: "queued", recipients: entry.message.recipients, subject: nil,
                preview: preview)
        }

        private init(id: String, kind: String, state: String, recipients: [String], subject: String?, preview: String?) {
            self.id = id
            self.kind = kind
            self.state = state
            self.recipients = recipients
            self.subject = subject
            self.preview = preview
            created = Self.created(id: id)
        }

        /// Both outboxes name a message after the Unix time it was written (Maildir's
        /// `SECONDS.M…`, and `sms-SECONDS.M…`).
        private static func created(id: String) -> String? {
            let name = id.hasPrefix("sms-") ? id.dropFirst(4) : Substring(id)
            guard let dot = name.firstIndex(of: "."), let seconds = Int(name[..<dot]), seconds > 0 else { return nil }
            return Date(timeIntervalSince1970: TimeInterval(seconds)).ISO8601Format()
        }

        // Every key present, null when empty: one shape for mail and text messages.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(kind, forKey: .kind)
            try container.encode(state, forKey: .state)
            try container.encode(recipients, forKey: .recipients)
            try container.encode(subject, forKey: .subject)
            try container.encode(preview, forKey: .preview)
            try container.encode(created, forKey: .created)
        }

        private enum CodingKeys: String, CodingKey {
            case id, kind, state, recipients, subject, preview, created
        }
    }

    private static func single(_ operands: [String], action: String) throws -> String {
        guard operands.count == 1 else { throw ShareError(.usage, "outbox \(action) needs one ID (see share outbox list)") }
        return operands[0]
    }

    /// Runs blocking work (network, disk) off the main actor.
    private static func background<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await Task.detached(operation: work).value
    }
}
