import Foundation
import ShareSheet
import ShareSheetSystem

/// The LocalSend devices this person has sent to or pinned (SPEC §12), kept at
/// `$XDG_DATA_HOME/sharesheet/devices.json`, one entry per certificate fingerprint.
///
/// A device is known by its fingerprint, not its alias: anyone can announce "Ana's Pixel", only
/// Ana's phone has its certificate. Pinning a device makes its alias mean that certificate:
/// a device that shows a pinned alias with another fingerprint is an impostor
/// (`isImpostor(alias:fingerprint:)`), which is never suggested, is flagged in the sheet and in
/// `share devices list`, and is never what an AirDrop to that alias reaches.
///
/// A value is a snapshot read once (`load(directories:)`); every change (`note`, `pin`,
/// `forget`) reads the file again under a lock and replaces it atomically, so two processes
/// noting devices at once both keep theirs.
public struct KnownDevices: Sendable {
    /// One device as the store keeps it.
    public struct Device: Sendable, Hashable, Codable {
        /// The SHA-256 of its certificate (uppercase hex), or the random string an HTTP peer sends.
        public var fingerprint: String
        /// The name it announced when last seen.
        public var alias: String
        /// The model it announced ("Pixel 7", "Linux"), when it said one.
        public var deviceModel: String?
        /// mobile, desktop, web, headless or server, when it said one.
        public var deviceType: String?
        /// Where it was last reached, `HOST:PORT` (`[::1]:53317` for IPv6).
        public var address: String?
        /// `https` or `http`, how it was last reached.
        public var `protocol`: String?
        /// When something was last sent to it (or it was pinned while visible).
        public var lastSeen: Date?
        /// True when the person pinned it: its alias then means this certificate.
        public var pinned: Bool

        /// Describes a device.
        public init(
            fingerprint: String, alias: String, deviceModel: String? = nil, deviceType: String? = nil, address: String? = nil,
            protocol: String? = nil, lastSeen: Date? = nil, pinned: Bool = false
        ) {
            self.fingerprint = fingerprint
            self.alias = alias
            self.deviceModel = deviceModel
            self.deviceType = deviceType
            self.address = address
            self.protocol = `protocol`
            self.lastSeen = lastSeen
            self.pinned = pinned
        }

        /// The device as discovery or a typed address found it, seen at `time`, not pinned.
        public init(_ device: NearbyDevice, seen time: Date) {
            self.init(
                fingerprint: device.fingerprint, alias: device.info.alias, deviceModel: device.info.deviceModel,
                deviceType: device.info.deviceType, address: Self.address(host: device.host, port: device.port),
                protocol: device.usesHTTPS ? "https" : "http", lastSeen: time)
        }

        /// `HOST:PORT`, with an IPv6 host in brackets.
        static func address(host: String, port: UInt16) -> String {
            let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
            return "\(bracketed):\(port)"
        }

        // Every key written, null when empty, so the file reads the same for every device.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(fingerprint, forKey: .fingerprint)
            try container.encode(alias, forKey: .alias)
            try container.encode(deviceModel, forKey: .deviceModel)
            try container.encode(deviceType, forKey: .deviceType)
            try container.encode(address, forKey: .address)
            try container.encode(self.protocol, forKey: .protocol)
            try container.encode(lastSeen, forKey: .lastSeen)
            try container.encode(pinned, forKey: .pinned)
        }

        private enum CodingKeys: String, CodingKey {
            case fingerprint, alias, deviceModel, deviceType, address, `protocol`, lastSeen, pinned
        }
    }

    /// Every device, pinned ones first, then the most recently seen first.
    public private(set) var devices: [Device]
    /// What reading the file ran into, to be said once: a damaged file set aside, an unreadable one.
    public var warnings: [String]

    /// A store with these devices (ordered as `devices` says) and no warnings.
    public init(devices: [Device] = []) {
        self.devices = Self.ordered(devices)
        self.warnings = []
    }

    /// The store's file: `$XDG_DATA_HOME/sharesheet/devices.json`.
    public static func file(in directories: XDGDirectories) -> URL {
        directories.shareSheetData.appendingPathComponent("devices.json", isDirectory: false)
    }

    /// Reads the store of `directories`. It never fails: a missing file is an empty store; a
    /// damaged one is set aside (`devices.json.corrupt-TIMESTAMP`) and an empty store returned
    /// with one warning; an unreadable one gives an empty store and a warning.
    public static func load(directories: XDGDirectories) -> KnownDevices {
        let file = Self.file(in: directories)
        do {
            return try KnownDevicesFile(file).withLock { try $0.read() }
        } catch {
            var store = KnownDevices()
            store.warnings = ["devices: \(file.path) cannot be read: \(Self.words(error))"]
            return store
        }
    }

    /// The pinned devices, most recently seen first.
    public var pinned: [Device] { devices.filter(\.pinned) }

    /// The device with this fingerprint (any case), if known.
    public func device(fingerprint: String) -> Device? {
        devices.first { $0.fingerprint.caseInsensitiveCompare(fingerprint) == .orderedSame }
    }

    /// What the device with this fingerprint calls itself, if known: for naming a device that
    /// the history or the queue knows only by fingerprint.
    public func alias(of fingerprint: String) -> String? { device(fingerprint: fingerprint)?.alias }

    /// The pinned devices with this alias (compared ignoring case and surrounding spaces, as an
    /// AirDrop by alias finds a device): usually none or one.
    public func pinned(alias: String) -> [Device] {
        pinned.filter { Self.sameAlias($0.alias, alias) }
    }

    /// True when a device showing `alias` with `fingerprint` is not who it claims: a pinned
    /// device has this alias, and none of the pinned devices with it has this fingerprint.
    public func isImpostor(alias: String, fingerprint: String) -> Bool {
        let claimed = pinned(alias: alias)
        return !claimed.isEmpty && !claimed.contains { $0.fingerprint.caseInsensitiveCompare(fingerprint) == .orderedSame }
    }

    /// The known devices `name` names: the one whose fingerprint it is (or, with at least 8
    /// hex digits, begins), else those with that alias.
    func devices(named name: String) -> [Device] {
        Self.matches(name, in: devices)
    }

    /// The devices among `candidates` that `name` names, as `devices(named:)` says.
    static func matches(_ name: String, in candidates: [Device]) -> [Device] {
        let wanted = name.trimmingCharacters(in: .whitespaces)
        guard !wanted.isEmpty else { return [] }
        if let exact = candidates.first(where: { $0.fingerprint.caseInsensitiveCompare(wanted) == .orderedSame }) { return [exact] }
        if wanted.count >= 8, wanted.allSatisfy(\.isHexDigit) {
            let prefixed = candidates.filter { $0.fingerprint.uppercased().hasPrefix(wanted.uppercased()) }
            if !prefixed.isEmpty { return prefixed }
        }
        let exactAlias = candidates.filter { $0.alias == wanted }
        if !exactAlias.isEmpty { return exactAlias }
        return candidates.filter { sameAlias($0.alias, wanted) }
    }

    /// Two aliases a person would take for the same name: equal ignoring case and the spaces
    /// around them.
    static func sameAlias(_ one: String, _ other: String) -> Bool {
        one.trimmingCharacters(in: .whitespaces).caseInsensitiveCompare(other.trimmingCharacters(in: .whitespaces)) == .orderedSame
    }

    /// Pinned first, then the most recently seen first, then by alias.
    static func ordered(_ devices: [Device]) -> [Device] {
        devices.sorted { first, second in
            if first.pinned != second.pinned { return first.pinned }
            let firstSeen = first.lastSeen ?? .distantPast
            let secondSeen = second.lastSeen ?? .distantPast
            if firstSeen != secondSeen { return firstSeen > secondSeen }
            return (first.alias, first.fingerprint) < (second.alias, second.fingerprint)
        }
    }

    /// A device with its store replaced: the one place `devices` changes.
    mutating func replace(_ devices: [Device]) { self.devices = Self.ordered(devices) }

    static func words(_ error: any Error) -> String {
        (error as? ShareError)?.message ?? (error as NSError).localizedDescription
    }
}
