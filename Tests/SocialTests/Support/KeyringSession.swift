import Foundation
import LocalTestSupport

/// A private D-Bus session bus with gnome-keyring's Secret Service on it, unlocked, kept in a
/// sandbox home: what a desktop session offers libsecret. One Python process starts both
/// daemons, prints the bus address, and stops them when it is stopped (by its pid) or when its
/// standard input closes.
final class KeyringSession: @unchecked Sendable {
    let peer: PythonPeer

    init(home: URL) throws {
        peer = try PythonPeer(fixture: "keyring-session", arguments: [home.path], printsPort: false)
    }

    /// `DBUS_SESSION_BUS_ADDRESS` of the private bus.
    var address: String { peer.firstLine }

    func stop() { peer.stop() }

    /// Locks the default collection, as a screen lock can: reading a secret then needs the
    /// password, and the prompt for it fails here (no display).
    func lock() throws {
        try Command.output(
            "dbus-send",
            ["--bus=\(address)", "--print-reply", "--dest=org.freedesktop.secrets", "/org/freedesktop/secrets",
             "org.freedesktop.Secret.Service.Lock", "array:objpath:/org/freedesktop/secrets/aliases/default"])
    }

    /// Deletes `service`'s item behind ShareSheet's back, as Passwords and Keys would.
    func deleteItem(service: String) throws {
        try Command.output(
            "secret-tool", ["clear", "application", "org.sharesheet", "service", service],
            environment: ["DBUS_SESSION_BUS_ADDRESS": address])
    }

    /// Starts watching every message on the bus (`dbus-monitor --monitor`).
    func monitor() throws -> BusMonitor { try BusMonitor(address: address) }
}

/// `dbus-monitor` on a private bus, its output in a file; stopped by its process id.
final class BusMonitor: @unchecked Sendable {
    private let process: Command.Running

    init(address: String) throws {
        process = try Command.start("/usr/bin/env", ["dbus-monitor", "--address", address, "--monitor"])
        // Monitoring has begun when the bus tells the monitor it lost its own name.
        for _ in 0..<100 where !text.contains("member=NameLost") { usleep(50_000) }
        guard text.contains("member=NameLost") else {
            stop()
            throw PeerError("dbus-monitor did not start: \(text.suffix(500))")
        }
    }

    deinit { stop() }

    private var text: String { process.standardOutput }

    /// Stops the monitor (it writes each message as it sees it) and returns the method calls
    /// made on an `interface` (`org.freedesktop.Secret.Service`) as `Interface.Member` names.
    @discardableResult
    func stop(callsOn prefix: String = "org.freedesktop.Secret.") -> [String] {
        process.kill(SIGKILL)
        process.waitUntilExit()
        let calls = text.split(separator: "\n").filter { $0.hasPrefix("method call ") }.compactMap { line -> String? in
            guard let interface = line.range(of: "interface="), let member = line.range(of: "; member=") else { return nil }
            let name = String(line[interface.upperBound..<member.lowerBound])
            guard name.hasPrefix(prefix) else { return nil }
            return (name.split(separator: ".").last.map(String.init) ?? name) + "." + line[member.upperBound...]
        }
        process.remove()
        return calls
    }
}
