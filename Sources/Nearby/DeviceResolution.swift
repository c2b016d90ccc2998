import Foundation
import ShareSheet

/// A device someone named that is not there now: discovery did not find it in time, or nothing
/// answered at its address (connection refused, host unreachable, connect timed out). Nothing
/// reached it, so the share can wait in the queue and go whole when the device is back; a
/// device that answered and refused, asked for a PIN or is not who it claims is never this.
struct DeviceNotReached: Error {
    /// What failing would have said, kept as the queued entry's last error.
    var error: ShareError
}

/// How the device a share names is found: the AirDrop activity and the queue's sender resolve
/// a `--to` value (or a stored target) the same way.
enum DeviceResolution {
    /// The device `target` names: a discovered fingerprint or alias, or a typed address.
    /// - Parameters:
    ///   - discovery: the running discovery; nil when discovery is switched off.
    ///   - expectedFingerprint: the fingerprint the device must have, when one was given.
    /// - Throws: `DeviceNotReached` when the device is not there now; `ShareError` otherwise
    ///   (discovery off for a name, a fingerprint that is not the expected one, cancelled).
    static func resolve(
        _ target: String, discovery: NearbyDiscovery?, settings: NearbySettings, identity: NearbyIdentity,
        expectedFingerprint: String?, isCancelled: () -> Bool
    ) throws -> NearbyDevice {
        if let device = discovery?.device(named: target) { return try check(device, expectedFingerprint) }
        if let (host, port) = DirectAddress.parse(target) {
            return try check(DirectAddress.reach(host: host, port: port, identity: identity, settings: settings), expectedFingerprint)
        }
        guard let discovery else {
            throw ShareError(.unavailable, "AirDrop: \(target): discovery is switched off; give the device as HOST[:PORT]")
        }
        guard let device = discovery.waitForDevice(named: target, timeout: settings.discoveryTimeout, isCancelled: isCancelled) else {
            if isCancelled() { throw ShareError(.cancelled, "AirDrop: cancelled") }
            throw DeviceNotReached(
                error: ShareError(
                    .unavailable,
                    "AirDrop: \(target): no such device nearby after \(Int(settings.discoveryTimeout)) s; multicast may be blocked, "
                        + "so give the device's address", setting: .init("to"), fix: .chooseDevice))
        }
        return try check(device, expectedFingerprint)
    }

    /// `device`, when its fingerprint is `expected` (or none is expected).
    static func check(_ device: NearbyDevice, _ expected: String?) throws -> NearbyDevice {
        guard let expected, !expected.isEmpty else { return device }
        guard device.fingerprint.uppercased() == expected.uppercased() else {
            throw ShareError(
                .unavailable, "AirDrop: \(device.info.alias) (\(device.host)): its fingerprint is not the one given",
                setting: .init("fingerprint"))
        }
        return device
    }

    /// The device's LocalSend address (`https://192.168.1.7:53317`), for `location`.
    static func address(of device: NearbyDevice) -> String {
        let host = device.host.contains(":") && !device.host.hasPrefix("[") ? "[\(device.host)]" : device.host
        return "\(device.usesHTTPS ? "https" : "http")://\(host):\(device.port)"
    }
}
