import Foundation
import Nearby
import ShareSheet
import ShareSheetSystem

/// `share devices [list] [--json] [--scan SECONDS]`, `share devices pin ALIAS|FINGERPRINT`,
/// `share devices forget ALIAS|FINGERPRINT`: the LocalSend devices kept at
/// `$XDG_DATA_HOME/sharesheet/devices.json` (SPEC §12). A pinned device is trusted by its
/// certificate; the list flags any device that shows a pinned alias with another one.
enum DevicesCommand: ShareSubcommand {
    static let spec = CommandSpec(
        name: "devices", summary: "the nearby devices you sent to or pinned (AirDrop), and any showing a pinned name falsely",
        about: "Every device an AirDrop reached is kept at $XDG_DATA_HOME/sharesheet/devices.json by its certificate "
            + "fingerprint, with its name and where it was. Pinning a device makes its name mean its certificate: "
            + "another device showing that name is flagged, never suggested, and an AirDrop to the name never goes to it. "
            + "share devices alone lists them.",
        actions: [
            ActionSpec(
                name: "list", summary: "known devices, pinned first; which are nearby now, and which are flagged",
                options: [
                    JSONOutput.jsonOption, JSONOutput.prettyOption,
                    .value("--scan", "SECONDS", "look for devices nearby this long first (default 2; 0 does not look)"),
                ]),
            ActionSpec(
                name: "pin", operands: "ALIAS|FINGERPRINT",
                summary: "trust a device by its certificate: its name then means that device"),
            ActionSpec(name: "forget", operands: "ALIAS|FINGERPRINT", summary: "forget a device and its pin"),
        ],
        examples: ["share devices --json", "share devices pin \"Ana's Pixel\"", "share devices forget 3F2A9C0D"])

    /// How long `list` looks for devices nearby, and `pin` for a device it does not know yet.
    static let defaultScanSeconds = 2.0

    static func run(_ arguments: [String], context: CommandContext) async throws -> Termination {
        // `share devices` and `share devices --json` list, as `share devices list` does.
        let listsByDefault = arguments.first.map { $0.hasPrefix("-") && $0 != "--help" } ?? true
        let words = listsByDefault ? ["list"] + arguments : arguments
        let action = try spec.action(named: words.first)
        let parsed = try options(Array(words.dropFirst()), for: action)
        let directories = XDGDirectories(environment: context.environment)
        switch action.name {
        case "list":
            if let extra = parsed.operands.first { throw ShareError(.usage, "devices list: unexpected argument '\(extra)'") }
            let format = try JSONOutput.format(parsed, command: "devices list")
            let seconds = try scanSeconds(parsed.value("--scan"))
            let known = KnownDevices.load(directories: directories)
            for warning in known.warnings { context.warn(warning) }
            let nearby = try await scan(seconds: seconds, directories: directories, context: context)
            let rows = DeviceListing.rows(known: known, nearby: nearby, now: Date())
            if let format {
                try JSONOutput.write(rows, format: format, to: context)
            } else if rows.isEmpty {
                context.standardOutput.write(nearby == nil ? "No devices known.\n" : "No devices known or nearby.\n")
            } else {
                context.standardOutput.write(rows.map(\.line).joined())
            }
            return .success
        case "pin":
            let name = try single(parsed.operands, action: "pin")
            let change: KnownDevices.Change
            do {
                change = try await background { try KnownDevices.pin(name, directories: directories) }
            } catch let error as ShareError where error.kind == .noInput {
                // A device never sent to can be pinned while it is nearby.
                let nearby = try await scan(seconds: defaultScanSeconds, directories: directories, context: context) ?? []
                guard !nearby.isEmpty else { throw saying(error, action: "pin") }
                do {
                    change = try await background { try KnownDevices.pin(name, directories: directories, nearby: nearby) }
                } catch let error as ShareError {
                    throw saying(error, action: "pin")
                }
            } catch let error as ShareError {
                throw saying(error, action: "pin")
            }
            for warning in change.warnings { context.warn(warning) }
            context.standardOutput.write("pinned \(change.device.alias) (fingerprint \(change.device.fingerprint))\n")
            return .success
        case "forget":
            let name = try single(parsed.operands, action: "forget")
            let change: KnownDevices.Change
            do {
                change = try await background { try KnownDevices.forget(name, directories: directories) }
            } catch let error as ShareError {
                throw saying(error, action: "forget")
            }
            for warning in change.warnings { context.warn(warning) }
            context.standardOutput.write("forgot \(change.device.alias) (fingerprint \(change.device.fingerprint))\n")
            return .success
        default:
            preconditionFailure("an action of the spec without a case: \(action.name)")
        }
    }

    /// The store's error with the action it came from in front: "devices pin: 'Ana' names 2 devices: …".
    private static func saying(_ error: ShareError, action: String) -> ShareError {
        var said = error
        said.message = "devices \(action): \(error.message)"
        return said
    }

    /// The one operand of `pin` and `forget`.
    private static func single(_ operands: [String], action: String) throws -> String {
        guard operands.count == 1, let name = operands.first, !name.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ShareError(.usage, "devices \(action): give one device's name or fingerprint")
        }
        return name
    }

    /// `--scan`'s seconds; the default when not given.
    private static func scanSeconds(_ text: String?) throws -> Double {
        guard let text else { return defaultScanSeconds }
        guard let seconds = Double(text), seconds >= 0, seconds <= 600 else {
            throw ShareError(.usage, "devices list: --scan needs a number of seconds from 0 to 600, got '\(text)'")
        }
        return seconds
    }

    /// The devices that answer within `seconds`; nil when nobody was asked (0 seconds,
    /// discovery switched off, or not possible here, which is said as a warning).
    private static func scan(seconds: Double, directories: XDGDirectories, context: CommandContext) async throws -> [NearbyDevice]? {
        guard seconds > 0 else { return nil }
        let settings = NearbySettings(configuration: try Configuration.load(from: directories), environment: context.environment)
        guard settings.discoveryEnabled else { return nil }
        let identity = try NearbyIdentity.loadOrCreate(in: NearbyIdentity.folder(directories))
        let discovery = NearbyDiscovery(settings: settings, identity: identity) { _ in }
        do {
            try discovery.start()
        } catch {
            context.warn("devices: cannot look for devices nearby: \((error as? ShareError)?.message ?? "\(error)")")
            return nil
        }
        try? await Task.sleep(for: .seconds(seconds))
        discovery.stop()
        return discovery.devices
    }

    /// Runs blocking store work off the main actor.
    private static func background<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await Task.detached { try work() }.value
    }
}

/// One row of `share devices list`: a known device, or one nearby now, with whether it is
/// visible and whether it shows a pinned device's alias with another certificate.
struct DeviceListing: Encodable {
    var alias: String
    var fingerprint: String
    var deviceModel: String?
    var deviceType: String?
    /// `HOST:PORT` where it is now, else where it was last reached.
    var address: String?
    var `protocol`: String?
    /// When it was last sent to, or seen nearby now.
    var lastSeen: Date?
    var pinned: Bool
    /// True when it is in the known devices (sent to or pinned), false when only nearby now.
    var known: Bool
    /// Whether it answered the scan; nil when no scan was made.
    var visible: Bool?
    /// True when a pinned device has its alias and another fingerprint.
    var flagged: Bool
    /// The pinned device's fingerprint, when flagged.
    var pinnedFingerprint: String?

    /// The known devices, marked visible when they answered, then the devices nearby not
    /// known yet: pinned first, then the most recently seen.
    static func rows(known: KnownDevices, nearby: [NearbyDevice]?, now: Date) -> [DeviceListing] {
        var rows: [DeviceListing] = known.devices.map { device in
            let seen = nearby?.first { $0.fingerprint.caseInsensitiveCompare(device.fingerprint) == .orderedSame }
            var row = DeviceListing(
                alias: device.alias, fingerprint: device.fingerprint, deviceModel: device.deviceModel, deviceType: device.deviceType,
                address: device.address, protocol: device.protocol, lastSeen: device.lastSeen, pinned: device.pinned, known: true,
                visible: nearby.map { _ in seen != nil }, flagged: false, pinnedFingerprint: nil)
            if let seen {
                let now = KnownDevices.Device(seen, seen: now)
                row.alias = now.alias
                row.address = now.address
                row.protocol = now.protocol
                row.lastSeen = now.lastSeen
            }
            return row
        }
        for device in nearby ?? [] where known.device(fingerprint: device.fingerprint) == nil {
            let seen = KnownDevices.Device(device, seen: now)
            rows.append(
                DeviceListing(
                    alias: seen.alias, fingerprint: seen.fingerprint, deviceModel: seen.deviceModel, deviceType: seen.deviceType,
                    address: seen.address, protocol: seen.protocol, lastSeen: now, pinned: false, known: false, visible: true,
                    flagged: false, pinnedFingerprint: nil))
        }
        for index in rows.indices where known.isImpostor(alias: rows[index].alias, fingerprint: rows[index].fingerprint) {
            rows[index].flagged = true
            rows[index].pinnedFingerprint = known.pinned(alias: rows[index].alias).first?.fingerprint
        }
        return rows.sorted { first, second in
            if first.pinned != second.pinned { return first.pinned }
            let firstSeen = first.lastSeen ?? .distantPast
            let secondSeen = second.lastSeen ?? .distantPast
            if firstSeen != secondSeen { return firstSeen > secondSeen }
            return (first.alias, first.fingerprint) < (second.alias, second.fingerprint)
        }
    }

    /// `Ana's Pixel  pinned  nearby now  Pixel 7, mobile  10.0.0.2:53317  seen 2026-12-05 15:58  fingerprint 3F2A…`
    @MainActor
    var line: String {
        var parts = [alias]
        if pinned { parts.append("pinned") }
        if flagged { parts.append("FLAGGED: not your pinned \(alias), another certificate") }
        if visible == true { parts.append("nearby now") }
        let details = [deviceModel, deviceType].compactMap { $0 }.filter { !$0.isEmpty }
        if !details.isEmpty { parts.append(details.joined(separator: ", ")) }
        if let address { parts.append(address) }
        if known, let lastSeen { parts.append("seen " + HistoryCommand.dateText(lastSeen)) }
        parts.append("fingerprint \(fingerprint)")
        return parts.joined(separator: "  ") + "\n"
    }

    // Every key present, null when empty.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(alias, forKey: .alias)
        try container.encode(fingerprint, forKey: .fingerprint)
        try container.encode(deviceModel, forKey: .deviceModel)
        try container.encode(deviceType, forKey: .deviceType)
        try container.encode(address, forKey: .address)
        try container.encode(self.protocol, forKey: .protocol)
        try container.encode(lastSeen, forKey: .lastSeen)
        try container.encode(pinned, forKey: .pinned)
        try container.encode(known, forKey: .known)
        try container.encode(visible, forKey: .visible)
        try container.encode(flagged, forKey: .flagged)
        try container.encode(pinnedFingerprint, forKey: .pinnedFingerprint)
    }

    private enum CodingKeys: String, CodingKey {
        case alias, fingerprint, deviceModel, deviceType, address, `protocol`, lastSeen, pinned, known, visible, flagged
        case pinnedFingerprint
    }
}
