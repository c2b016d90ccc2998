import Foundation
import ShareSheet
import ShareSheetSystem

/// The Message built-in: text, links and `sms:` recipients become an SMS handed to KDE Connect
/// or the desktop's `sms:` handler, or kept in the Messages outbox.
///
/// Fields: To (phone numbers; an `sms:` item fills it), Body.
public final class MessageActivity: BuiltInActivity {
    private var recipients: [String] = []
    private var body = ""
    private var attachments: [URL] = []
    /// Items that are no file (an image or data read from a pipe): a text message carries
    /// attachments as files only, so sending them must fail rather than drop them unsaid.
    private var unattachable: [String] = []
    private let givenSettings: (@Sendable ([String: String]) throws -> MessageSettings)?

    /// Makes the Message activity.
    /// - Parameters:
    ///   - descriptor: the registry's description of the Message built-in.
    ///   - settings: makes the settings from per-share overrides (`--set via=…`); defaults to
    ///     the configuration file, outbox and search path of the activity's `hostEnvironment`,
    ///     read when it sends.
    public init(
        descriptor: BuiltInActivityDescriptor,
        settings: (@Sendable ([String: String]) throws -> MessageSettings)? = nil
    ) {
        givenSettings = settings
        super.init(descriptor: descriptor)
    }

    /// Makes the settings: the given closure's, else the host environment's.
    private var loadSettings: @Sendable ([String: String]) throws -> MessageSettings {
        if let givenSettings { return givenSettings }
        let host = hostEnvironment
        return { overrides in try MessageSettings(host: host, overrides: overrides) }
    }

    /// An MMS carries a small preview of its attachments: the sources are asked for one.
    public override var thumbnailSize: CGSize? { CGSize(width: 240, height: 240) }

    public override func prepare(withActivityItems activityItems: [Any]) {
        var paragraphs: [String] = []
        for item in activityItems {
            switch item {
            case let text as String: paragraphs.append(text)
            case let text as AttributedString: paragraphs.append(String(text.characters))
            case let text as NSAttributedString: paragraphs.append(text.string)
            case let url as URL where url.isFileURL: attachments.append(url)
            case let url as URL where ["sms", "smsto", "mms"].contains(url.scheme?.lowercased() ?? ""):
                let parsed = TextMessage.parse(smsURL: url.absoluteString)
                recipients += parsed.recipients
                if let text = parsed.body, !text.isEmpty { paragraphs.append(text) }
            case let url as URL: paragraphs.append(url.absoluteString)
            case let image as Image:
                if let file = image.fileURL { attachments.append(file) } else { unattachable.append("an image (\(image.type.identifier))") }
            case let asset as Asset: attachments.append(asset.fileURL)
            case is Data: unattachable.append("data")
            default: continue
            }
        }
        body = paragraphs.joined(separator: "\n")
    }

    private var presetProblem: ShareError? {
        guard let value = context.presetValues["to"] else { return nil }
        let numbers: [String]
        if case .list(let list) = value { numbers = list } else {
            numbers = value.text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        return numbers.first { !PhoneNumber.isValid($0) }.map { ShareError(.badData, "Message: to: not a phone number: \($0)") }
    }

    /// The fields; `via` and `kdeconnect-device` are the `[message]` configuration keys.
    public override var presetKeys: Set<String> { ["to", "body"] }

    public override var activityInterface: ActivityInterface? {
        if presetProblem != nil { return nil }
        var interface = ActivityInterface(
            title: "New Message",
            message: attachments.isEmpty ? nil : "Attachments: " + attachments.map(\.lastPathComponent).joined(separator: ", "),
            fields: [
                InterfaceField(
                    id: "to", label: "To", kind: .phoneNumbers, isRequired: true,
                    defaultValue: recipients.isEmpty ? nil : .list(recipients)),
                InterfaceField(id: "body", label: "Body", kind: .multilineText, defaultValue: body.isEmpty ? nil : .text(body)),
            ],
            submitTitle: "Send",
            onSubmit: { [weak self] values in self?.send(values) })
        interface.attachments = attachments.map { file in
            InterfaceAttachment(name: file.lastPathComponent, byteCount: InterfaceAttachment.byteCount(ofFileAt: file), fileURL: file)
        }
        // As Mail does: a person who typed the message reads what goes where before it goes.
        interface.confirmation = { [weak self] values in
            guard let self else { return [] }
            return self.summary(of: values)
        }
        return interface
    }

    /// To, the text's first line, the attachments and where the message goes.
    private func summary(of values: InterfaceValues) -> [String] {
        var numbers: [String] = []
        if case .list(let list)? = values["to"] { numbers = list } else if let text = values["to"]?.text { numbers = [text] }
        let text = values["body"]?.text ?? ""
        let firstLine = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let shown = firstLine.count > 60 ? String(firstLine.prefix(59)) + "…" : firstLine
        var lines = ["To: " + numbers.joined(separator: ", "), "Text: " + (text.isEmpty ? "(none)" : shown)]
        if !attachments.isEmpty { lines.append("Attachments: " + attachments.map(\.lastPathComponent).joined(separator: ", ")) }
        if let route { lines.append("Goes: " + route.summary) }
        return lines
    }

    public override var route: ActivityRoute? {
        givenSettings == nil ? MailRoutes.message(host: hostEnvironment) : nil
    }

    /// The interface's fields; before `prepare` it has no items, so it reads nothing.
    public override var declaredFields: [InterfaceField] { activityInterface?.fields ?? [] }

    public override func perform() {
        if let problem = presetProblem { activityDidFail(problem) } else { activityDidFinish(false) }
    }

    private func send(_ values: InterfaceValues) {
        if let item = unattachable.first {
            activityDidFail(
                ShareError(
                    .badData,
                    "Message: \(item) that is not a file cannot be attached to a text message; save it to a file and share the file"))
            return
        }
        var numbers: [String] = []
        if case .list(let list)? = values["to"] { numbers = list } else if let text = values["to"]?.text {
            numbers = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        let message = TextMessage(recipients: numbers, body: values["body"]?.text ?? "", attachments: attachments)
        var overrides: [String: String] = [:]
        for key in ["via", "kdeconnect-device"] { if let value = context.presetValues[key] { overrides[key] = value.text } }
        let loadSettings = self.loadSettings
        let configurationFile = hostEnvironment.configurationFileDisplayPath
        Task.detached { [weak self] in
            let outcome: Result<MessageResult, any Error>
            var chosen: MessageSettings.Via?
            do {
                let settings = try loadSettings(overrides)
                chosen = settings.via
                outcome = .success(try MessageDelivery(settings: settings).deliver(message))
            } catch {
                outcome = .failure(error)
            }
            await self?.finish(outcome, via: chosen, configurationFile: configurationFile)
        }
    }

    private func finish(_ outcome: Result<MessageResult, any Error>, via: MessageSettings.Via?, configurationFile: String) {
        switch outcome {
        case .success(.handedOff(let url)):
            returnedItems = [url]
            disposition = .handedOff
            location = url.absoluteString
            activityDidFinish(true)
        case .success(.sentWithKDEConnect(let device)):
            returnedItems = ["sent through KDE Connect device \(device)"]
            disposition = .handedOff
            location = "kdeconnect:\(device)"
            activityDidFinish(true)
        case .success(.queued(let id, let file)):
            returnedItems = [file]
            disposition = .queued
            location = file.path
            if via != .outbox {
                // Queued because nothing could take it, not because the outbox was asked for.
                fallback = ActivityFallback(
                    message: "No SMS handler or KDE Connect device is set up, so the message waits in the Messages outbox (\(id)).",
                    setting: .init(group: "message", "via"), fix: .configureMessaging, path: configurationFile)
            }
            activityDidFinish(true)
        case .failure(let error as ShareError):
            activityDidFail(error)
        case .failure(let error):
            activityDidFail(ShareError(.ioError, "Message: \(error)"))
        }
    }
}
