// Two network namespaces on a private link, and programs started inside one of them: where the
// Nearby tests and the window tests meet a LocalSend peer. Creating namespaces needs root.
import Foundation
import Testing

/// Two network namespaces joined by a veth pair, with a /30 on the veths and the multicast route
/// on them: a private link where discovery and transfers run without a packet on any other
/// interface. Deleted (with everything in them) by `remove()`. Used by the Nearby tests and the
/// window tests; needs root.
public final class NetworkPair: Sendable {
    /// The namespace our `share` runs in.
    public let ours: String
    /// Our address on the link.
    public let ourAddress = "10.253.7.1"
    /// The namespace the peer (``LocalSendPeer``) runs in.
    public let theirs: String
    /// Their address on the link.
    public let theirAddress = "10.253.7.2"

    private static let counter = LockedCounter()

    /// Creates both namespaces (named after the test process and a counter) and the link.
    /// - Throws: ``PeerError`` with what `ip` said; nothing is left behind.
    public init() throws {
        let tag = "\(getpid() % 100_000)x\(Self.counter.next())"
        ours = "shs-\(tag)-a"
        theirs = "shs-\(tag)-b"
        do {
            try Self.ip(["netns", "add", ours])
            try Self.ip(["netns", "add", theirs])
            // Made inside our namespace with its peer end created directly in theirs: neither end
            // ever exists in the test machine's own namespace.
            try Self.ip(["-n", ours, "link", "add", "veth0", "type", "veth", "peer", "name", "veth0", "netns", theirs])
            for (namespace, address) in [(ours, ourAddress), (theirs, theirAddress)] {
                try Self.ip(["-n", namespace, "link", "set", "lo", "up"])
                try Self.ip(["-n", namespace, "addr", "add", "\(address)/30", "dev", "veth0"])
                try Self.ip(["-n", namespace, "link", "set", "veth0", "up"])
                try Self.ip(["-n", namespace, "route", "add", "224.0.0.0/4", "dev", "veth0"])
            }
        } catch {
            remove()
            throw error
        }
    }

    /// Deletes both namespaces (and the veth pair with them).
    public func remove() {
        for namespace in [ours, theirs] { try? Self.ip(["netns", "del", namespace]) }
    }

    /// Limits what leaves our namespace to `megabitsPerSecond` (a token bucket on our veth), so
    /// a transfer lasts long enough to be watched: unlimited, 200 MB cross the link in well under
    /// a second.
    /// - Throws: ``PeerError`` with what `tc` said.
    public func limitRate(megabitsPerSecond: Int) throws {
        let result = try Command.run(
            "/usr/sbin/tc", ["-n", ours, "qdisc", "add", "dev", "veth0", "root", "tbf", "rate", "\(megabitsPerSecond)mbit", "burst", "256kb", "latency", "50ms"])
        guard result.status == 0 else { throw PeerError("tc qdisc add … tbf: \(result.standardError)") }
    }

    /// Runs `ip` with arguments (`["-n", pair.theirs, "route", "del", …]`).
    /// - Throws: ``PeerError`` with its error output when it fails.
    public static func ip(_ arguments: [String]) throws {
        let result = try Command.run("/usr/sbin/ip", arguments)
        guard result.status == 0 else {
            throw PeerError("ip \(arguments.joined(separator: " ")): \(result.standardError)")
        }
    }

    /// Starts `program` inside `namespace` with exactly `environment` (nothing of the test's own),
    /// standard input from /dev/null and its output and errors into two files, and returns at
    /// once. `ip netns exec` replaces itself with the program, so the PID is the program's own:
    /// signal it, and reap it with ``Share/finish(_:timeout:)`` (which also reads and removes the
    /// files) or ``Spawn/wait(_:until:)``.
    /// - Parameters:
    ///   - namespace: ``ours`` or ``theirs`` (any namespace `ip netns` knows).
    ///   - environment: the whole environment, for instance a `TemporaryHome`'s with `DISPLAY`
    ///     and `DBUS_SESSION_BUS_ADDRESS` on top; unix path sockets reach across namespaces,
    ///     abstract ones and loopback ports do not.
    ///   - folder: where the output files go (named `.out-UUID` and `.err-UUID`).
    ///   - directory: the working folder; nil keeps the test's.
    public static func start(
        _ program: String, _ arguments: [String], namespace: String, environment: [String: String], outputIn folder: URL,
        directory: URL? = nil
    ) throws -> Share.Started {
        let id = UUID().uuidString
        let output = folder.appendingPathComponent(".out-\(id)")
        let error = folder.appendingPathComponent(".err-\(id)")
        let files = [output, error].map { open($0.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600) }
        let input = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { (files + [input]).filter { $0 >= 0 }.forEach { close($0) } }
        guard !(files + [input]).contains(where: { $0 < 0 }) else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let pid = try Spawn.start(
            "/usr/sbin/ip", ["netns", "exec", namespace, program] + arguments, environment: environment,
            directory: directory?.path, input: input, output: files[0], error: files[1])
        return Share.Started(pid: pid, output: output, error: error)
    }
}

extension Share {
    /// Starts the built `share` (or `program`) inside a network namespace with `home`'s
    /// environment and `extra` on top (a window test's `DISPLAY` and `DBUS_SESSION_BUS_ADDRESS`),
    /// in `home`'s folder; the PID is the program's own. Wait with ``finish(_:timeout:)``.
    public static func start(
        _ arguments: [String], home: TemporaryHome, extra: [String: String] = [:], program: URL? = nil,
        namespace: String
    ) throws -> Started {
        guard let binary = program ?? url else { throw MissingBinary() }
        return try NetworkPair.start(
            binary.path, arguments, namespace: namespace, environment: home.environment.merging(extra) { _, given in given },
            outputIn: home.root, directory: home.root)
    }
}

/// Numbers for the namespaces' names, unique within the test process.
final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}
