import Foundation
import ShareSheet
import ShareSheetSystem

/// The known devices' file, `devices.json`, and the lock beside it (`.devices.json.lock`) that
/// makes each read-change-write one step among processes: the sheet noting a device, the
/// service sending a queued AirDrop and `share devices pin` may run at once.
struct KnownDevicesFile {
    /// `devices.json`.
    let url: URL

    init(_ url: URL) {
        self.url = url
    }

    /// What the file holds: a version, then the devices.
    private struct Stored: Codable {
        var version: Int
        var devices: [KnownDevices.Device]
    }

    /// Runs `body` holding the lock; blocks while another process holds it. Without a file and
    /// without `creating`, `body` runs unlocked: there is nothing to read, and a read must not
    /// make folders.
    func withLock<Result>(creating: Bool = false, _ body: (KnownDevicesFile) throws -> Result) throws -> Result {
        let folder = url.deletingLastPathComponent()
        if !creating, !FileManager.default.fileExists(atPath: url.path) { return try body(self) }
        if !FileManager.default.fileExists(atPath: folder.path) {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let lockPath = folder.appendingPathComponent(".\(url.lastPathComponent).lock").path
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.posixError("\(lockPath): cannot be opened") }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw Self.posixError("\(lockPath): cannot be locked") }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body(self)
    }

    /// The devices in the file; an empty store when there is none. A file that is not a
    /// devices file is renamed `devices.json.corrupt-TIMESTAMP` (kept for a person to look at)
    /// and an empty store comes back with the one warning that says so.
    /// - Throws: `ShareError` when the file is there but cannot be read or set aside.
    func read() throws -> KnownDevices {
        guard FileManager.default.fileExists(atPath: url.path) else { return KnownDevices() }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ShareError(.ioError, "\(url.path): \(KnownDevices.words(error))")
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            let stored = try decoder.decode(Stored.self, from: data)
            return KnownDevices(devices: Self.unique(stored.devices))
        } catch {
            let aside = try setAside()
            var store = KnownDevices()
            store.warnings = [
                "devices: \(url.path) is not a devices file (\(Self.reason(error))); set it aside as \(aside) and started "
                    + "a new list: pinned devices must be pinned again"
            ]
            return store
        }
    }

    /// Replaces the file with `store`'s devices, atomically (0600: it says who the person shares with).
    func write(_ store: KnownDevices) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let data = try encoder.encode(Stored(version: 1, devices: store.devices))
        try AtomicFile.write(data + Data("\n".utf8), to: url, permissions: 0o600)
    }

    /// One entry per fingerprint (a file edited by hand may repeat one): the last one wins.
    private static func unique(_ devices: [KnownDevices.Device]) -> [KnownDevices.Device] {
        var byFingerprint: [String: KnownDevices.Device] = [:]
        for device in devices { byFingerprint[device.fingerprint.uppercased()] = device }
        return Array(byFingerprint.values)
    }

    /// Renames the file out of the way; returns the new name.
    private func setAside() throws -> String {
        let stamp = Self.timestamp(Date())
        var aside = url.path + ".corrupt-" + stamp
        var number = 1
        while FileManager.default.fileExists(atPath: aside) {
            number += 1
            aside = url.path + ".corrupt-\(stamp)-\(number)"
        }
        guard rename(url.path, aside) == 0 else { throw Self.posixError("\(url.path): cannot be set aside") }
        return (aside as NSString).lastPathComponent
    }

    /// What was wrong with the file, in a few words.
    private static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted: return "not JSON"
        case DecodingError.keyNotFound(let key, _): return "no \(key.stringValue)"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "a wrong value at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        default: return "unreadable"
        }
    }

    /// `20261205T015400Z`: UTC, sortable, no characters a shell or file manager minds.
    private static func timestamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
    }

    private static func posixError(_ message: String) -> ShareError {
        ShareError(.ioError, "\(message): \(String(cString: strerror(errno)))")
    }
}
