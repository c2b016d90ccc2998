import Foundation
import Mail
import ShareSheet
import ShareSheetSystem
import ShareSheetTerminal

/// `share outbox list|show|flush|retry|remove`: everything that waits to leave the machine —
/// the mail outbox (a Maildir under `$XDG_DATA_HOME/sharesheet/Outbox`), the Messages outbox,
/// and the share queue AirDrop, posting and share targets keep their shares in (SPEC §14).
enum OutboxCommand: ShareSubcommand {
    static let spec = CommandSpec(
        name: "outbox", summary: "the mail, text messages and shares that wait to be sent",
        about: "Mail waits in a Maildir under $XDG_DATA_HOME/sharesheet/Outbox when no server is set up or "
            + "it cannot be reached; text messages when nothing could send them; an AirDrop, a post or a share to "
            + "a share target when the device, the network or the target's service is not there. The service "
            + "sends them by itself when they can go.",
        actions: [
            ActionSpec(
                name: "list", summary: "everything waiting, oldest first, with why it waits",
                options: [JSONOutput.jsonOption, JSONOutput.prettyOption]),
            ActionSpec(name: "show", operands: "ID", summary: "a queued message's headers (mail), text, or share"),
            ActionSpec(
                name: "flush", summary: "send everything queued once; failures stay queued",
                options: [
                    .value("--set", "FIELD=VALUE", "a Mail setting for this flush, such as smtp=URL", repeatable: true),
                    ShareOptions.quiet, ShareOptions.verbose,
                ]),
            ActionSpec(
                name: "retry", operands: "ID",
                summary: "queue an interrupted send again; a queued share is sent now"),
            ActionSpec(name: "remove", operands: "ID", summary: "delete a queued message or share"),
        ],
        examples: ["share outbox flush --set smtp=smtp://127.0.0.1:2525"])

    static func run(_ arguments: [String], context: CommandContext) async throws -> Termination {
        let action = try spec.action(named: arguments.first)
        let parsed = try options(Array(arguments.dropFirst()), for: action)
        let directories = XDGDirectories(environment: context.environment)
        let mailOutbox = MailOutbox(directories: directories)
        let messageOutbox = MessageOutbox(directories: directories)
        let queue = ShareQueue(directories: directories)
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
            let reasons = OutboxListing.Reasons(configuration: try? Configuration.load(from: directories))
            let listings =
                mailOutbox.entries().map { OutboxListing($0, reasons: reasons) }
                + messageOutbox.entries().map { OutboxListing($0, reasons: reasons) }
                + queue.entries().map(OutboxListing.init)
            if let format = try JSONOutput.format(parsed, command: "outbox list") {
                try JSONOutput.write(listings, format: format, to: context)
                return .success
            }
            // Said in words: no output at all reads like a command that failed to run.
            if listings.isEmpty {
                context.standardOutput.write("The outbox is empty.\n")
                return .success
            }
            let now = Date()
            context.standardOutput.write(listings.map { $0.line(now: now) }.joined())
            return .success
        case "show":
            let id = try single(rest, action: action.name)
            if let entry = queue.entries().first(where: { $0.share.id == id }) {
                context.standardOutput.write(QueueWords.details(of: entry))
                return .success
            }
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
            let senders = QueueSenders.all(directories: directories, environment: context.environment)
            let interrupted = Locked(false)
            let watcher = context.catchesInterrupts ? InterruptWatcher { interrupted.withLock { $0 = true } } : nil
            let flush = QueueFlush(queue: queue, senders: senders)
            let queueOutcomes = try await background { flush.run(isCancelled: { interrupted.withLock { $0 } }) }
            watcher?.stop()
            for outcome in queueOutcomes {
                if let error = outcome.error {
                    failures.append(error)
                    context.warn("outbox: kept \(outcome.share.id): \(error.message)")
                } else {
                    context.standardOutput.write(QueueWords.sent(outcome))
                }
            }
            guard let worst = failures.first else { return .success }
            let kind = failures.allSatisfy { $0.kind == .temporaryFailure } ? ShareError.Kind.temporaryFailure : worst.kind
            return Termination(
                status: Termination.status(of: kind), message: "outbox: \(failures.count) still waiting (share outbox list says why)")
        case "retry":
            let id = try single(rest, action: action.name)
            guard let entry = queue.entries().first(where: { $0.share.id == id }) else {
                try mailOutbox.retry(id)
                return .success
            }
            return try await retry(entry, in: queue, context: context, directories: directories)
        case "remove":
            let id = try single(rest, action: action.name)
            if messageOutbox.entries().contains(where: { $0.id == id }) {
                try messageOutbox.remove(id)
            } else if queue.entries().contains(where: { $0.share.id == id }) {
                try queue.remove(id)
            } else {
                try mailOutbox.remove(id)
            }
            return .success
        default:
            preconditionFailure("an action of the spec without a case: \(action.name)")
        }
    }

    private static func single(_ operands: [String], action: String) throws -> String {
        guard operands.count == 1 else { throw ShareError(.usage, "outbox \(action) needs one ID (see share outbox list)") }
        return operands[0]
    }

    /// `retry ID` for a queued share: an interrupted one goes back in the queue, said as one that
    /// may arrive twice; then it is sent now.
    private static func retry(
        _ entry: ShareQueue.Entry, in queue: ShareQueue, context: CommandContext, directories: XDGDirectories
    ) async throws -> Termination {
        let id = entry.share.id
        if entry.state == .interrupted {
            try queue.retry(id)
            context.warn(
                "outbox: \(id) was interrupted while it was being sent to \(entry.share.targetTitle): it may arrive twice")
        }
        let flush = QueueFlush(
            queue: queue, senders: QueueSenders.all(directories: directories, environment: context.environment))
        let outcome = try await background { flush.send(id) }
        guard let outcome else {
            // No sender for its kind here, or another process took it: it stays as it is.
            return Termination(status: Termination.status(of: .temporaryFailure), message: "outbox: \(id) was not sent now")
        }
        if let error = outcome.error {
            return Termination(status: Termination.status(of: error.kind), message: "outbox: kept \(id): \(error.message)")
        }
        context.standardOutput.write(QueueWords.sent(outcome))
        return .success
    }

    /// Runs blocking work (network, disk) off the main actor.
    private static func background<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await Task.detached(operation: work).value
    }
}
