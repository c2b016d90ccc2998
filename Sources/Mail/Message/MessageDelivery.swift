import Foundation
import ShareSheet
import ShareSheetSystem

/// What happened to a text message.
public enum MessageResult: Sendable, Equatable {
    /// The desktop's `sms:` handler (KDE Connect, GSConnect, Chatty…) received this URL.
    case handedOff(URL)
    /// `kdeconnect-cli --send-sms` sent it through this device.
    case sentWithKDEConnect(device: String)
    /// No transport is available: it waits in the Messages outbox.
    case queued(id: String, file: URL)
}

/// How text messages leave: the `[message]` group of the configuration.
///
/// ```
/// [message]
/// via=auto
/// kdeconnect-device=0123456789abcdef
/// ```
///
/// `via` is `auto` (the default), `handler`, `kdeconnect` or `outbox`; `kdeconnect-device` is
/// the KDE Connect device id to send through.
public struct MessageSettings: Sendable {
    /// Which transport to use.
    public enum Via: String, Sendable {
        case auto, handler, kdeconnect, outbox
    }

    /// Which transport to use.
    public var via: Via
    /// The KDE Connect device id.
    public var kdeConnectDevice: String?
    /// The Messages outbox.
    public var outbox: MessageOutbox
    /// Where `kdeconnect-cli` is looked for: the host's `PATH`.
    public var searchPath: [String]

    /// Settings that use the default transports and outbox.
    public init(
        via: Via = .auto, kdeConnectDevice: String? = nil, outbox: MessageOutbox = MessageOutbox(),
        searchPath: [String] = HostEnvironment.process.searchPath
    ) {
        self.via = via
        self.kdeConnectDevice = kdeConnectDevice
        self.outbox = outbox
        self.searchPath = searchPath
    }

    /// The settings of a host: its configuration file's `[message]`, its outbox and search
    /// path, then `overrides`.
    /// - Throws: `ShareError(.configuration)` for a malformed file, `.usage` for an unknown `via`.
    public init(host: HostEnvironment, overrides: [String: String] = [:]) throws {
        try self.init(
            configuration: host.loadConfiguration(), overrides: overrides, directories: host.directories,
            searchPath: host.searchPath)
    }

    /// Reads `[message]`, then `overrides` (same keys).
    public init(
        configuration: Configuration, overrides: [String: String] = [:],
        directories: XDGDirectories = HostEnvironment.process.directories,
        searchPath: [String] = HostEnvironment.process.searchPath
    ) throws {
        self.init(outbox: MessageOutbox(directories: directories), searchPath: searchPath)
        if let text = overrides["via"] ?? configuration.string("via", in: "message") {
            guard let via = Via(rawValue: text.lowercased()) else {
                throw ShareError(
                    .usage, "Message: '\(text)' is no way to send: use auto, handler, kdeconnect or outbox",
                    setting: .init(group: "message", "via"))
            }
            self.via = via
        }
        kdeConnectDevice = overrides["kdeconnect-device"] ?? configuration.string("kdeconnect-device", in: "message")
    }
}

/// Sends a text message through the first transport that is there: KDE Connect when a device
/// is configured, the registered `sms:` handler, else the Messages outbox.
public struct MessageDelivery: Sendable {
    /// The transports and the outbox.
    public var settings: MessageSettings

    /// Delivers with `settings`.
    public init(settings: MessageSettings) { self.settings = settings }

    /// Hands `message` on, or queues it.
    /// - Throws: `ShareError(.badData)` for a bad number; `.unavailable` when the chosen
    ///   transport fails.
    public func deliver(_ message: TextMessage) throws -> MessageResult {
        for number in message.recipients where !PhoneNumber.isValid(number) {
            throw ShareError(.badData, "Message: not a phone number: \(number)")
        }
        guard !message.recipients.isEmpty else { throw ShareError(.usage, "Message: no recipient", setting: .init("to"), fix: .changeSetting) }
        let via = settings.via
        if via == .kdeconnect || (via == .auto && settings.kdeConnectDevice != nil && KDEConnect.tool(in: settings.searchPath) != nil) {
            return try KDEConnect.send(message, device: settings.kdeConnectDevice, searchPath: settings.searchPath)
        }
        if via == .handler || (via == .auto && DesktopLauncher.hasHandler(forScheme: "sms")) {
            let url = message.smsURL
            try DesktopLauncher.open(url, what: "Message")
            return .handedOff(URL(string: url)!)
        }
        let file = try settings.outbox.add(message)
        return .queued(id: file.deletingPathExtension().lastPathComponent, file: file)
    }

    /// Tries every queued message again with the transports (never the outbox itself); those
    /// that still cannot go stay queued.
    public func flush() -> [(id: String, error: ShareError?)] {
        var outcomes: [(String, ShareError?)] = []
        for entry in settings.outbox.entries() {
            var direct = settings
            if direct.via == .auto || direct.via == .outbox {
                if direct.kdeConnectDevice != nil, KDEConnect.tool(in: settings.searchPath) != nil {
                    direct.via = .kdeconnect
                } else if DesktopLauncher.hasHandler(forScheme: "sms") {
                    direct.via = .handler
                } else {
                    outcomes.append((entry.id, ShareError(.temporaryFailure, "\(entry.id): no SMS transport is available")))
                    continue
                }
            }
            do {
                _ = try MessageDelivery(settings: direct).deliver(entry.message)
                try settings.outbox.remove(entry.id)
                outcomes.append((entry.id, nil))
            } catch let error as ShareError {
                outcomes.append((entry.id, error))
            } catch {
                outcomes.append((entry.id, ShareError(.ioError, "\(entry.id): \(error)")))
            }
        }
        return outcomes
    }
}

/// `kdeconnect-cli`, when installed.
enum KDEConnect {
    /// `kdeconnect-cli` in the first folder of `searchPath` that has it.
    static func tool(in searchPath: [String]) -> String? {
        searchPath.map { "\($0)/kdeconnect-cli" }.first(where: FileManager.default.isExecutableFile(atPath:))
    }

    static func send(_ message: TextMessage, device: String?, searchPath: [String]) throws -> MessageResult {
        guard let tool = tool(in: searchPath) else { throw ShareError(.unavailable, "Message: kdeconnect-cli is not installed") }
        guard let device else { throw ShareError(
                .unavailable, "Message: no KDE Connect device is configured", setting: .init(group: "message", "kdeconnect-device"),
                fix: .changeSetting) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        var arguments = ["--device", device, "--send-sms", message.body]
        for recipient in message.recipients { arguments += ["--destination", TextMessage.normalizedNumber(recipient)] }
        for attachment in message.attachments { arguments += ["--attachment", attachment.path] }
        process.arguments = arguments
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        let errors = Pipe()
        process.standardError = errors
        do { try process.run() } catch { throw ShareError(.unavailable, "Message: kdeconnect-cli: \(error.localizedDescription)") }
        let detail = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let text = String(decoding: detail, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw ShareError(.unavailable, "Message: kdeconnect-cli failed: \(text.isEmpty ? "exit \(process.terminationStatus)" : text)")
        }
        return .sentWithKDEConnect(device: device)
    }
}

/// The Messages outbox: one JSON file per message in `$XDG_DATA_HOME/sharesheet/Messages`,
/// written atomically.
public struct MessageOutbox: Sendable {
    /// The folder.
    public let folder: URL

    /// One queued message.
    public struct Entry: Sendable {
        /// The id `share outbox` uses.
        public var id: String
        /// The file.
        public var url: URL
        /// The message.
        public var message: TextMessage
    }

    /// The outbox at `folder`.
    public init(folder: URL) { self.folder = folder }

    /// The user's Messages outbox.
    public init(directories: XDGDirectories = HostEnvironment.process.directories) {
        folder = directories.shareSheetData.appendingPathComponent("Messages", isDirectory: true)
    }

    /// Queues `message`; returns its file. Its attachments are copied next to it first
    /// (`ID.files/`), so a message that waits still has them when the originals move, or when
    /// they were a share's private copies (a photo without its location) that go with the share.
    public func add(_ message: TextMessage) throws -> URL {
        let id = "sms-" + MailOutbox.uniqueName().split(separator: ".").prefix(2).joined(separator: ".")
        var stored = message
        if !message.attachments.isEmpty {
            let files = folder.appendingPathComponent(id + ".files", isDirectory: true)
            try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            var used: Set<String> = []
            do {
                stored.attachments = try message.attachments.map { source in
                    var name = source.lastPathComponent
                    var number = 1
                    while !used.insert(name).inserted {
                        number += 1
                        name = "\(number)-" + source.lastPathComponent
                    }
                    let copy = files.appendingPathComponent(name)
                    try FileManager.default.copyItem(at: source, to: copy)
                    return copy
                }
            } catch {
                try? FileManager.default.removeItem(at: files)
                throw ShareError(.ioError, "Message: the attachments cannot be kept in the outbox: \(error.localizedDescription)")
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(stored)
        let file = folder.appendingPathComponent(id + ".json")
        try AtomicFile.write(data, to: file, permissions: 0o600)
        return file
    }

    /// Every queued message, oldest first.
    public func entries() -> [Entry] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter {
            !$0.hasPrefix(".") && $0.hasSuffix(".json")
        }
        return names.sorted(by: MaildirOrder.precedes).compactMap { name in
            let url = folder.appendingPathComponent(name)
            guard let data = try? Data(contentsOf: url), let message = try? JSONDecoder().decode(TextMessage.self, from: data) else {
                return nil
            }
            return Entry(id: String(name.dropLast(5)), url: url, message: message)
        }
    }

    /// Deletes the queued message `id`.
    public func remove(_ id: String) throws {
        let url = folder.appendingPathComponent(id + ".json")
        guard unlink(url.path) == 0 else { throw ShareError(.noInput, "outbox: no message \(id)") }
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(id + ".files", isDirectory: true))
    }
}
