// A private session bus for one service test, which starts the share service on demand from a
// service folder of its own, as a desktop's session bus does.
import Foundation
import Synchronization

/// A private session `dbus-daemon` for one test, with D-Bus activation from its own service
/// folder: the first call to `org.sharesheet.ShareSheet` starts the built `share --service` (or
/// the command given), in the test home's environment.
///
/// The daemon runs in a process group of its own, and what it activates inherits that group and
/// its standard output and error (``log``), so ``stop()`` stops the service too, and a watchdog
/// stops the whole group when the test process ends without ``stop()``. Give ``environment`` to
/// clients (``ServiceClient``) and call ``stop()`` at the end, also after a failure.
public final class ServiceBus: Sendable {
    /// Resources/dbus/org.sharesheet.ShareSheet.service in this repository.
    public static let activationFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Resources/dbus/org.sharesheet.ShareSheet.service")

    /// The name the share service owns.
    public static let serviceName = "org.sharesheet.ShareSheet"

    /// The bus's own folder inside the test home: its configuration, socket, service folder and log.
    public let folder: URL
    /// The folder of `.service` files the daemon activates from.
    public let serviceFolder: URL
    /// The bus's address: a path socket in ``folder`` (not abstract).
    public let address: String
    /// The folder given to the daemon and the service as `TMPDIR`, inside the test home.
    public let temporaryFolder: URL
    /// The daemon's standard output and error, which the services it starts inherit.
    public let log: URL
    /// The environment of the daemon, the services it starts and clients: the test home's
    /// (``TemporaryHome/environment``), `TMPDIR`, what was added at start, and
    /// `DBUS_SESSION_BUS_ADDRESS`.
    public let environment: [String: String]
    /// The daemon's PID, which is also its process group.
    public let busPID: pid_t
    /// A shell that stops the bus's process group when the test process ends without ``stop()``:
    /// it waits for the end of a pipe only this process writes to.
    public let watchdogPID: pid_t
    private let watchdogPipe: Int32
    private let stopped = Mutex(false)

    private init(
        folder: URL, address: String, temporaryFolder: URL, environment: [String: String], busPID: pid_t,
        watchdog: (pid: pid_t, pipe: Int32)
    ) {
        self.folder = folder
        serviceFolder = folder.appendingPathComponent("services", isDirectory: true)
        self.address = address
        self.temporaryFolder = temporaryFolder
        log = folder.appendingPathComponent("bus.log")
        self.environment = environment
        self.busPID = busPID
        watchdogPID = watchdog.pid
        watchdogPipe = watchdog.pipe
    }

    /// Starts the bus in `home`, with `org.sharesheet.ShareSheet` activatable, and returns once it
    /// accepts connections. Nothing is activated yet.
    /// - Parameters:
    ///   - home: the test home: the bus's folder is made in it, and its environment is the daemon's.
    ///   - service: the command the bus runs for the name; nil for the repository's activation
    ///     file, which runs the built front, `sharesheet-service` (it starts `share --service`).
    ///   - environment: variables added to the daemon's (and so the service's) environment.
    ///   - activatable: more names the bus starts on demand, each with its command (share targets).
    ///   - timeout: seconds the daemon may take to listen.
    /// - Throws: ``PeerError`` with the end of the daemon's log when it does not come up;
    ///   ``Share/MissingBinary`` when `share` was not built.
    public static func start(
        home: TemporaryHome, service: [String]? = nil, environment extra: [String: String] = [:],
        activatable: [String: [String]] = [:], timeout: Double = 10, namespace: String? = nil
    ) throws -> ServiceBus {
        let folder = home.root.appendingPathComponent("bus", isDirectory: true)
        let services = folder.appendingPathComponent("services", isDirectory: true)
        let temporary = home.root.appendingPathComponent("tmp", isDirectory: true)
        for made in [services, temporary] { try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true) }
        let socket = folder.appendingPathComponent("socket").path
        guard socket.utf8.count < 108 else { throw PeerError("the bus socket path \(socket) is too long (sun_path holds 107 bytes)") }
        let activation: String
        if let service {
            activation = """
                [D-BUS Service]
                Name=\(serviceName)
                Exec=\(try service.map(execWord).joined(separator: " "))

                """
        } else {
            // The repository's activation file, as `make install-dbus-service` installs it, with
            // the build folder for the front's folder: it starts the front, which starts `share`.
            let front = try Share.sibling("sharesheet-service").path
            activation = try String(contentsOf: activationFile, encoding: .utf8)
                .replacingOccurrences(of: "@LIBEXECDIR@/sharesheet-service", with: try execWord(front))
        }
        try activation.write(to: services.appendingPathComponent("\(serviceName).service"), atomically: true, encoding: .utf8)
        for (name, command) in activatable {
            try "[D-BUS Service]\nName=\(name)\nExec=\(try command.map(execWord).joined(separator: " "))\n"
                .write(to: services.appendingPathComponent("\(name).service"), atomically: true, encoding: .utf8)
        }
        let configuration = folder.appendingPathComponent("bus.conf")
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(socket)</listen>
          <servicedir>\(services.path)</servicedir>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>

        """.write(to: configuration, atomically: true, encoding: .utf8)

        let address = "unix:path=\(socket)"
        var environment = home.environment
        environment["TMPDIR"] = temporary.path
        environment.merge(extra) { _, given in given }
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        let log = folder.appendingPathComponent("bus.log")
        let logDescriptor = open(log.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { [logDescriptor, null].forEach { close($0) } }
        guard logDescriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        // setsid: the daemon leads a process group (a spawned child is no group leader, so
        // setsid does not fork and the PID stays the daemon's); what it activates joins it.
        // In a network namespace (`ip netns exec` execs, so the PID stays the daemon's), what it
        // activates runs there too: a service that reaches a receiver in the other namespace.
        let daemon = ["/usr/bin/setsid", "/usr/bin/dbus-daemon", "--config-file=\(configuration.path)", "--nofork", "--nosyslog"]
        let command = namespace.map { ["/usr/sbin/ip", "netns", "exec", $0] + daemon } ?? daemon
        let pid = try Spawn.start(
            command[0], Array(command.dropFirst()),
            environment: environment, directory: home.root.path, input: null, output: logDescriptor,
            error: logDescriptor)
        let deadline = Date().addingTimeInterval(timeout)
        var problem: String?
        while problem == nil {
            if !DesktopSession.isRunning(pid) {
                problem = "exited (\(describe(Spawn.waitBlocking(pid))))"
            } else if getpgid(pid) == pid, accepts(socket) {
                break
            } else if Date() > deadline {
                problem = "did not accept connections on \(socket) within \(timeout) s"
                terminateGroup(pid)
            } else {
                usleep(5_000)
            }
        }
        if let problem {
            throw PeerError("dbus-daemon did not start: it \(problem); its log ends:\n\(tail(of: log, lines: 15))")
        }
        let watchdog: (pid: pid_t, pipe: Int32)
        do {
            watchdog = try startWatchdog(group: pid)
        } catch {
            terminateGroup(pid)
            throw error
        }
        return ServiceBus(
            folder: folder, address: address, temporaryFolder: temporary, environment: environment, busPID: pid,
            watchdog: watchdog)
    }

    /// Everything of this bus that runs now: the daemon, what it started (its process group and
    /// its descendants, which includes the activated service) and the watchdog.
    public var processIDs: [pid_t] {
        Set(DesktopSession.members(ofGroup: busPID) + Self.descendants(of: busPID) + [busPID, watchdogPID])
            .filter(DesktopSession.isRunning).sorted()
    }

    /// The PID of the process that owns `name` now (`GetConnectionUnixProcessID`), or nil when
    /// no one does. It activates nothing.
    public func ownerPID(of name: String = ServiceBus.serviceName) async throws -> pid_t? {
        let asked = try await ServiceClient(bus: self, timeout: 30).run(["pid", name])
        guard asked.status == 0 else {
            if asked.errorName == "org.freedesktop.DBus.Error.NameHasNoOwner" { return nil }
            throw ServiceClient.Failure(asked, bus: self)
        }
        return (asked.objects.last?["pid"] as? Int).map { pid_t($0) }
    }

    /// What the daemon and the services it started wrote so far.
    public var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// The last `lines` lines of ``log``, or "(nothing)".
    public func logTail(lines: Int = 20) -> String { Self.tail(of: log, lines: lines) }

    /// Stops the daemon and everything it started: SIGTERM to its process group and to its
    /// descendants, SIGKILL after 5 s for what is left; the daemon is reaped. Calling it again
    /// does nothing.
    public func stop() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        kill(watchdogPID, SIGKILL)
        _ = Spawn.waitBlocking(watchdogPID)
        close(watchdogPipe)
        let others = Self.descendants(of: busPID)
        Self.terminateGroup(busPID, also: others)
    }

    deinit { stop() }

    /// The peak resident memory of a process in bytes (`VmHWM` in /proc/PID/status), or nil when
    /// it is not running.
    public static func peakResidentMemory(of pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kilobytes * 1024
    }

    // MARK: - Internals

    /// A word of an `Exec=` line. D-Bus splits the line as a shell would, inside a desktop-file
    /// value that allows no backslash but its own escapes: quote what is not plain, with single
    /// quotes, or double ones for a word with a single quote.
    private static func execWord(_ word: String) throws -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy {
            $0.isASCII && CharacterSet.alphanumerics.contains($0) || "/._-=:,+@%".unicodeScalars.contains($0)
        }
        if plain { return word }
        if !word.contains("'") { return "'\(word)'" }
        guard !word.contains(where: { "\"\\$`".contains($0) }) else {
            throw PeerError("the service command word \(word) cannot be quoted for an Exec= line")
        }
        return "\"\(word)\""
    }

    /// Whether a Unix socket at `path` accepts a connection now.
    private static func accepts(_ path: String) -> Bool {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }

    /// Every running process below `pid` (children, their children…), from /proc's parent links.
    static func descendants(of pid: pid_t) -> [pid_t] {
        var parents: [pid_t: [pid_t]] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let child = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            // After the command's ")": state, then the parent's PID.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, let parent = pid_t(fields[1]) { parents[parent, default: []].append(child) }
        }
        var found: [pid_t] = []
        var next = parents[pid] ?? []
        while let child = next.popLast() {
            found.append(child)
            next += parents[child] ?? []
        }
        return found.filter(DesktopSession.isRunning)
    }

    /// SIGTERM to the group `leader` leads and to `others`; waits up to 5 s for all of them,
    /// reaping the leader (this process's child); SIGKILL for what is left.
    private static func terminateGroup(_ leader: pid_t, also others: [pid_t] = []) {
        let targets = Set(DesktopSession.members(ofGroup: leader) + others + [leader])
        kill(-leader, SIGTERM)
        for pid in others { kill(pid, SIGTERM) }
        let deadline = Date().addingTimeInterval(5)
        var reaped = false
        repeat {
            if !reaped, waitpid(leader, nil, WNOHANG) == leader { reaped = true }
            if !targets.contains(where: DesktopSession.isRunning) { break }
            usleep(10_000)
        } while Date() < deadline
        kill(-leader, SIGKILL)
        for pid in targets where DesktopSession.isRunning(pid) { kill(pid, SIGKILL) }
        if !reaped { _ = Spawn.waitBlocking(leader) }
    }

    /// The watchdog: `sh` blocked reading a pipe whose write end (close-on-exec) only this process
    /// holds. When this process ends, the read returns and it stops the group (dash's `kill`
    /// takes no `--`).
    private static func startWatchdog(group: pid_t) throws -> (pid: pid_t, pipe: Int32) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EMFILE) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer {
            close(null)
            close(ends[0])
        }
        do {
            let pid = try Spawn.start(
                "/bin/sh", ["-c", "read -r _; kill -TERM -\(group); sleep 5; kill -KILL -\(group)"],
                environment: ["PATH": "/usr/bin:/bin"], input: ends[0], output: null, error: null)
            return (pid, ends[1])
        } catch {
            close(ends[1])
            throw error
        }
    }

    private static func describe(_ ended: (status: Int32, signal: Int32)) -> String {
        ended.signal == 0 ? "status \(ended.status)" : "signal \(ended.signal)"
    }

    private static func tail(of file: URL, lines: Int) -> String {
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        let last = text.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines + 1).joined(separator: "\n")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return last.isEmpty ? "(nothing)" : last
    }
}
