import Foundation
import ShareSheet

/// A device someone named that is not there now: discovery did not find it in time, or nothing
/// answered at its address (connection refused, host unreachable, connect timed out). Nothing
/// reached it, so the share can wait in the queue and go whole when the device is back; a
/// device that answered and refused, asked for a PIN or is not who it claims is never this.
struct DeviceNotReached: Error {
    /// What failing would have said, kept as the queued entry's last error.
    var error: ShareError
    /// The fingerprint the device must have when it is back: the one given, or the one a pinned
    /// alias means; nil when any device of that name or address will do.
    var fingerprint: String? = nil
}

/// How the device a share names is found: the AirDrop activity and the queue's sender resolve
/// a `--to` value (or a stored target) the same way.
///
/// A name that is a pinned device's alias means that device's certificate: only a device with
/// its fingerprint is sent to. When another device answers to the name and the pinned one does
/// not, the share fails saying so (it is not queued: the person should know someone shows
/// their device's name); when nothing answers, it waits for the pinned fingerprint.
enum DeviceResolution {
    /// The device `target` names: a discovered fingerprint or alias, or a typed address.
    /// - Parameters:
    ///   - discovery: the running discovery; nil when discovery is switched off.
    ///   - expectedFingerprint: the fingerprint the device must have, when one was given.
    ///   - known: the known devices, whose pins an alias must match.
    /// - Throws: `DeviceNotReached` when the device is not there now; `ShareError` otherwise
    ///   (discovery off for a name, a fingerprint that is not the expected or pinned one, cancelled).
    static func resolve(
        _ target: String, discovery: NearbyDiscovery?, settings: NearbySettings, identity: NearbyIdentity,
        expectedFingerprint: String?, known: KnownDevices = KnownDevices(), isCancelled: () -> Bool
    ) throws -> NearbyDevice {
        let expected = expectedFingerprint.flatMap { $0.isEmpty ? nil : $0.uppercased() }
        if DirectAddress.parse(target) == nil {
            if let expected {
                return try find(target, fingerprints: [expected], pinned: false, discovery: discovery, settings: settings, isCancelled: isCancelled)
            }
            let pins = AirDropQueueing.looksLikeFingerprint(target) ? [] : known.pinned(alias: target)
            if !pins.isEmpty {
                return try find(
                    target, fingerprints: pins.map { $0.fingerprint.uppercased() }, pinned: true, discovery: discovery, settings: settings,
                    isCancelled: isCancelled)
            }
        }
        if let device = discovery?.device(named: target) { return try check(device, expected) }
        if let (host, port) = DirectAddress.parse(target) {
            return try check(DirectAddress.reach(host: host, port: port, identity: identity, settings: settings), expected)
        }
        guard let discovery else { throw discoveryOff(target) }
        guard let device = discovery.waitForDevice(named: target, timeout: settings.discoveryTimeout, isCancelled: isCancelled) else {
            if isCancelled() { throw ShareError(.cancelled, "AirDrop: cancelled") }
            throw DeviceNotReached(error: notNearby(target, settings))
        }
        return try check(device, expected)
    }

    /// The device named `target` whose fingerprint is one of `fingerprints`, waited for within
    /// the discovery timeout. Another device answering to the name is not sent to: it fails
    /// the share, saying whether it is not the pinned device or not the fingerprint given.
    private static func find(
        _ target: String, fingerprints: [String], pinned: Bool, discovery: NearbyDiscovery?, settings: NearbySettings,
        isCancelled: () -> Bool
    ) throws -> NearbyDevice {
        guard let discovery else { throw discoveryOff(target) }
        let deadline = Date().addingTimeInterval(settings.discoveryTimeout)
        while true {
            if let device = discovery.devices.first(where: { fingerprints.contains($0.fingerprint.uppercased()) }) { return device }
            if isCancelled() { throw ShareError(.cancelled, "AirDrop: cancelled") }
            if Date() >= deadline { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        if let other = discovery.device(named: target) {
            if pinned {
                throw ShareError(
                    .unavailable,
                    "AirDrop: the device showing \(other.info.alias) at \(other.host) is not your pinned \(target): it has another "
                        + "certificate (fingerprint \(other.fingerprint)); nothing was sent")
            }
            throw mismatch(other)
        }
        throw DeviceNotReached(error: notNearby(target, settings), fingerprint: fingerprints.count == 1 ? fingerprints[0] : nil)
    }

    /// `device`, when its fingerprint is `expected` (or none is expected).
    static func check(_ device: NearbyDevice, _ expected: String?) throws -> NearbyDevice {
        guard let expected, !expected.isEmpty else { return device }
        guard device.fingerprint.uppercased() == expected.uppercased() else { throw mismatch(device) }
        return device
    }

    private static func mismatch(_ device: NearbyDevice) -> ShareError {
        ShareError(
            .unavailable, "AirDrop: \(device.info.alias) (\(device.host)): its fingerprint is not the one given",
            setting: .init("fingerprint"))
    }

    private static func discoveryOff(_ target: String) -> ShareError {
        ShareError(.unavailable, "AirDrop: \(target): discovery is switched off; give the device's address instead, such as 192.168.1.20")
    }

    private static func notNearby(_ target: String, _ settings: NearbySettings) -> ShareError {
        ShareError(
            .unavailable,
            "AirDrop: \(target): no such device nearby after \(Int(settings.discoveryTimeout)) s; multicast may be blocked, "
                + "so give the device's address", setting: .init("to"), fix: .chooseDevice)
    }

    /// The device's LocalSend address (`https://192.168.1.7:53317`), for `location`.
    static func address(of device: NearbyDevice) -> String {
        let host = device.host.contains(":") && !device.host.hasPrefix("[") ? "[\(device.host)]" : device.host
        return "\(device.usesHTTPS ? "https" : "http")://\(host):\(device.port)"
    }
}
