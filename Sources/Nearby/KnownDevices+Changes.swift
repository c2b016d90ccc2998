import Foundation
import ShareSheet
import ShareSheetSystem

extension KnownDevices {
    /// What `pin` or `forget` did: the device it was done to, and what reading the file ran into.
    public struct Change: Sendable {
        /// The device as it is now (pinned), or as it was (forgotten).
        public var device: Device
        /// Warnings to say once (a damaged file set aside).
        public var warnings: [String]
    }

    /// Notes that something was sent to `device`: it is added, or its alias, model, address and
    /// last-seen time are brought up to date; a pin stays.
    /// - Returns: warnings to say (a damaged file set aside).
    /// - Throws: `ShareError` when the file cannot be written.
    @discardableResult
    public static func note(_ device: NearbyDevice, directories: XDGDirectories, at time: Date = Date()) throws -> [String] {
        try change(directories) { store in
            var devices = store.devices
            var seen = Device(device, seen: time)
            if let index = devices.firstIndex(where: { $0.fingerprint.caseInsensitiveCompare(device.fingerprint) == .orderedSame }) {
                seen.pinned = devices[index].pinned
                devices[index] = seen
            } else {
                devices.append(seen)
            }
            store.replace(devices)
            return store.warnings
        }
    }

    /// Pins the device `name` names, so its alias means its certificate from now on.
    /// - Parameters:
    ///   - name: a fingerprint (or its first 8 or more hex digits), or an alias.
    ///   - nearby: devices visible now; one of them can be pinned before anything was sent to it.
    ///   - time: when a device pinned from `nearby` was seen.
    /// - Throws: `ShareError` when `name` names no device, or more than one (naming each), or the
    ///   file cannot be written.
    public static func pin(_ name: String, directories: XDGDirectories, nearby: [NearbyDevice] = [], at time: Date = Date()) throws
        -> Change
    {
        try change(directories) { store in
            let known = store.devices
            let visible = nearby.filter { device in
                !known.contains { $0.fingerprint.caseInsensitiveCompare(device.fingerprint) == .orderedSame }
            }
            var candidates = known + visible.map { Device($0, seen: time) }
            var device = try single(name, among: candidates, doing: "pin")
            device.pinned = true
            candidates.removeAll { $0.fingerprint == device.fingerprint }
            // Only the devices already known and the one pinned are kept, not everything visible.
            store.replace(candidates.filter { candidate in known.contains { $0.fingerprint == candidate.fingerprint } } + [device])
            return Change(device: device, warnings: store.warnings)
        }
    }

    /// Forgets the known device `name` names: it is no longer pinned, named or listed.
    /// - Parameter name: a fingerprint (or its first 8 or more hex digits), or an alias.
    /// - Throws: `ShareError` when `name` names no known device, or more than one (naming
    ///   each), or the file cannot be written.
    public static func forget(_ name: String, directories: XDGDirectories) throws -> Change {
        try change(directories) { store in
            let device = try single(name, among: store.devices, doing: "forget")
            store.replace(store.devices.filter { $0.fingerprint != device.fingerprint })
            return Change(device: device, warnings: store.warnings)
        }
    }

    /// Reads the store under its lock, lets `body` change it, and writes it back when `body`
    /// returns (not when it throws).
    private static func change<Result>(_ directories: XDGDirectories, _ body: (inout KnownDevices) throws -> Result) throws
        -> Result
    {
        try KnownDevicesFile(file(in: directories)).withLock(creating: true) { file in
            var store = try file.read()
            let result = try body(&store)
            try file.write(store)
            return result
        }
    }

    /// The one device `name` names among `candidates`.
    private static func single(_ name: String, among candidates: [Device], doing action: String) throws -> Device {
        let found = matches(name, in: candidates)
        guard found.count <= 1 else {
            let each = found.map { "\($0.alias) (fingerprint \($0.fingerprint)\($0.pinned ? ", pinned" : ""))" }
            throw ShareError(
                .usage,
                "'\(name)' names \(found.count) devices: \(each.dropLast().joined(separator: ", ")) and \(each.last!); "
                    + "give the fingerprint of the one you mean")
        }
        guard let device = found.first else {
            let hint = action == "pin" ? "; send it something first, or pin it while it is nearby" : ""
            throw ShareError(.noInput, "no device '\(name)' is known\(hint)")
        }
        return device
    }
}
