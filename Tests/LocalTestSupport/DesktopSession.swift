// A private desktop for window tests: an X server, a session bus and the accessibility bus,
// each started and stopped by PID.
import Foundation
import Synchronization

/// A private desktop session: Xvfb, a session `dbus-daemon` and the AT-SPI accessibility bus.
///
/// Start it in a folder of the test's own; give ``environment`` to the GTK process under test and
/// to ``AccessibilityDriver``; call ``stop()`` at the end (also after a failure).
public final class DesktopSession: Sendable {
    /// The folder holding the bus configuration, the sockets, the runtime folder and the logs.
    public let folder: URL
    /// The X display, `:N`, picked by Xvfb itself.
    public let display: String
    /// The session bus, a path socket in ``folder`` (not abstract: it is reachable from other
    /// network namespaces).
    public let busAddress: String
    /// The accessibility bus that at-spi-bus-launcher started, as `org.a11y.Bus.GetAddress` reports it.
    public let accessibilityBusAddress: String
    /// Xvfb's PID.
    public let serverPID: pid_t
    /// The session dbus-daemon's PID.
    public let busPID: pid_t
    /// at-spi-bus-launcher's PID, which is also its process group: the accessibility
    /// dbus-daemon and at-spi2-registryd run in that group.
    public let launcherPID: pid_t
    /// A shell that stops the peers when the test process ends without ``stop()`` (crashed,
    /// killed by a timeout): it waits for the end of a pipe only this process writes to.
    public let watchdogPID: pid_t
    private let watchdogPipe: Int32

    private let stopped = Mutex(false)

    /// The screen Xvfb offers.
    public static let screen = "1280x800x24"

    /// A peer of the session did not start: which one, and the last lines of its log.
    public struct StartFailure: Error, CustomStringConvertible {
        /// `Xvfb`, `dbus-daemon` or `at-spi-bus-launcher`.
        public var peer: String
        public var description: String
    }

    private init(
        folder: URL, display: String, busAddress: String, accessibilityBusAddress: String, serverPID: pid_t,
        busPID: pid_t, launcherPID: pid_t, watchdog: (pid: pid_t, pipe: Int32)
    ) {
        self.folder = folder
        self.display = display
        self.busAddress = busAddress
        self.accessibilityBusAddress = accessibilityBusAddress
        self.serverPID = serverPID
        self.busPID = busPID
        self.launcherPID = launcherPID
        self.watchdogPID = watchdog.pid
        self.watchdogPipe = watchdog.pipe
    }

    /// Starts Xvfb, the session bus and the accessibility bus, and returns once the accessibility
    /// registry answers on it.
    /// - Parameters:
    ///   - folder: a folder of the test's own (made when missing); the session writes only inside it.
    ///   - timeout: seconds each peer may take to come up.
    /// - Throws: ``StartFailure`` naming the peer that did not come up, with the end of its log.
    public static func start(in folder: URL, timeout: Double = 20) throws -> DesktopSession {
        let runtime = folder.appendingPathComponent("runtime", isDirectory: true)
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        chmod(runtime.path, 0o700)
        let socket = folder.appendingPathComponent("session-bus").path
        // sun_path holds 107 bytes; at-spi-bus-launcher puts its socket at runtime/at-spi/bus_N.
        let longest = max(socket.utf8.count, runtime.path.utf8.count + "/at-spi/bus_9999".utf8.count)
        guard longest < 108 else {
            throw StartFailure(peer: "dbus-daemon", description: "the folder \(folder.path) is too deep for a socket path")
        }
        var started: [pid_t] = []
        do {
            let (serverPID, display) = try startServer(folder: folder, timeout: timeout)
            started.append(serverPID)
            let (busPID, busAddress) = try startBus(folder: folder, socket: socket, timeout: timeout)
            started.append(busPID)
            var environment = baseEnvironment
            environment["DISPLAY"] = display
            environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
            environment["XDG_RUNTIME_DIR"] = runtime.path
            let (launcherPID, accessibilityBus) = try startAccessibilityBus(
                folder: folder, environment: environment, timeout: timeout)
            let watchdog: (pid: pid_t, pipe: Int32)
            do {
                watchdog = try startWatchdog(server: serverPID, bus: busPID, launcher: launcherPID)
            } catch {
                terminate(launcherPID, group: true)
                throw error
            }
            return DesktopSession(
                folder: folder, display: display, busAddress: busAddress, accessibilityBusAddress: accessibilityBus,
                serverPID: serverPID, busPID: busPID, launcherPID: launcherPID, watchdog: watchdog)
        } catch {
            // The peer that failed is stopped already; stop the ones before it, last first.
            for pid in started.reversed() { terminate(pid, group: false) }
            throw error
        }
    }

    /// What a GTK process under test (and the driver) needs: the display, the session bus, AT-SPI
    /// on, X11 with the cairo renderer, in-memory settings, a private runtime folder; no Wayland.
    public var environment: [String: String] {
        var environment = Self.baseEnvironment
        environment["DISPLAY"] = display
        environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        environment["XDG_RUNTIME_DIR"] = folder.appendingPathComponent("runtime").path
        return environment
    }

    private static var baseEnvironment: [String: String] {
        [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "LANG": "C.UTF-8",
            "GTK_A11Y": "atspi", "GSK_RENDERER": "cairo", "GDK_BACKEND": "x11", "GSETTINGS_BACKEND": "memory",
            "GIO_USE_VFS": "local", "NO_AT_BRIDGE": "0",
        ]
    }

    /// The session's processes that are alive now: Xvfb, the session bus, at-spi-bus-launcher and
    /// everything in its process group (the accessibility bus, at-spi2-registryd), the watchdog.
    public var processIDs: [pid_t] {
        ([serverPID, busPID] + Self.members(ofGroup: launcherPID) + [watchdogPID]).filter(Self.isRunning)
    }

    /// Stops everything the session started, by PID: the launcher's process group, then the
    /// session bus, then Xvfb (SIGTERM, so it removes its socket; SIGKILL after 5 s).
    /// Calling it again does nothing.
    public func stop() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        kill(watchdogPID, SIGKILL)
        _ = Spawn.waitBlocking(watchdogPID)
        close(watchdogPipe)
        Self.terminate(launcherPID, group: true)
        Self.terminate(busPID, group: false)
        Self.terminate(serverPID, group: false)
    }

    /// Whether `pid` runs; a zombie (ended, not yet reaped) counts as ended.
    public static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return stat[stat.index(after: close)...].split(separator: " ").first != "Z"
    }

    /// The running processes whose process group is `group`.
    static func members(ofGroup group: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(pid_t.init).filter { getpgid($0) == group && isRunning($0) }.sorted()
    }

    // MARK: - Starting the peers

    private static func startServer(folder: URL, timeout: Double) throws -> (pid_t, String) {
        // -displayfd: Xvfb picks a free display number and writes it once it accepts clients.
        let log = folder.appendingPathComponent("xvfb.log")
        let pipe = try Pipe.make()
        let started = Date()
        let pid = try spawn(
            "/usr/bin/Xvfb", ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", screen],
            environment: ["PATH": "/usr/bin:/bin"], output: pipe.write, log: log)
        close(pipe.write)
        defer { close(pipe.read) }
        guard let number = Pipe.readLine(pipe.read, from: pid, timeout: timeout), Int(number) != nil else {
            throw failure("Xvfb", pid: pid, group: false, log: log, started: started)
        }
        return (pid, ":" + number)
    }

    private static func startBus(folder: URL, socket: String, timeout: Double) throws -> (pid_t, String) {
        let configuration = folder.appendingPathComponent("session-bus.conf")
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(socket)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>

        """.write(to: configuration, atomically: true, encoding: .utf8)
        let log = folder.appendingPathComponent("session-bus.log")
        let pipe = try Pipe.make()
        // --print-address: the daemon writes its address once it listens.
        let started = Date()
        let pid = try spawn(
            "/usr/bin/dbus-daemon",
            ["--config-file=\(configuration.path)", "--nofork", "--nosyslog", "--print-address=1"],
            environment: ["PATH": "/usr/bin:/bin"], output: pipe.write, log: log)
        close(pipe.write)
        defer { close(pipe.read) }
        guard let address = Pipe.readLine(pipe.read, from: pid, timeout: timeout), address.hasPrefix("unix:path=") else {
            throw failure("dbus-daemon", pid: pid, group: false, log: log, started: started)
        }
        return (pid, address)
    }

    private static func startAccessibilityBus(
        folder: URL, environment: [String: String], timeout: Double
    ) throws -> (pid_t, String) {
        let log = folder.appendingPathComponent("at-spi-bus-launcher.log")
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { close(null) }
        // setsid makes the launcher a process group of its own (it does not fork: a spawned child
        // is no group leader), so the dbus-daemon it starts and the registryd that daemon
        // activates are stopped with it. Their output goes to the launcher's log.
        let started = Date()
        let pid = try spawn(
            "/usr/bin/setsid", ["/usr/libexec/at-spi-bus-launcher", "--launch-immediately"],
            environment: environment, output: null, log: log)
        // setsid runs in the child after posix_spawn returns: give it a moment.
        let grouped = Date().addingTimeInterval(min(timeout, 5))
        while getpgid(pid) != pid, isRunning(pid), Date() < grouped { usleep(1_000) }
        guard getpgid(pid) == pid else {
            throw failure(
                "at-spi-bus-launcher", pid: pid, group: false, log: log, started: started,
                problem: "is not a process group of its own")
        }
        let deadline = Date().addingTimeInterval(timeout)
        var lastError = ""
        // Up means: the launcher answers GetAddress on the session bus, and on the bus it names
        // the registry answers a ping (which also activates at-spi2-registryd).
        while Date() < deadline {
            guard isRunning(pid) else { break }
            let asked = dbusSend(
                ["--session", "--print-reply=literal", "--dest=org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus.GetAddress"],
                environment: environment, folder: folder)
            let address = asked.output.trimmingCharacters(in: .whitespacesAndNewlines)
            if asked.status == 0, address.hasPrefix("unix:") {
                let pinged = dbusSend(
                    ["--bus=\(address)", "--print-reply", "--dest=org.a11y.atspi.Registry", "/org/a11y/atspi/registry",
                     "org.freedesktop.DBus.Peer.Ping"],
                    environment: environment, folder: folder)
                if pinged.status == 0 { return (pid, address) }
                lastError = pinged.error
            } else {
                lastError = asked.error
            }
            usleep(50_000)
        }
        let answer = lastError.trimmingCharacters(in: .whitespacesAndNewlines)
        throw failure(
            "at-spi-bus-launcher", pid: pid, group: true, log: log, started: started,
            problem: "did not bring up the accessibility bus (last answer: \(answer.isEmpty ? "none" : answer))")
    }

    /// Starts the watchdog: `sh` reading a pipe whose write end stays (close-on-exec) in this
    /// process; the end of the pipe, when this process ends, makes it stop the peers by PID.
    /// (The apps under test lose their X server then and end too.) dash's `kill` takes no `--`.
    private static func startWatchdog(server: pid_t, bus: pid_t, launcher: pid_t) throws -> (pid: pid_t, pipe: Int32) {
        let pipe = try Pipe.make()
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer {
            close(null)
            close(pipe.read)
        }
        do {
            let pid = try Spawn.start(
                "/bin/sh", ["-c", "read -r _; kill -TERM -\(launcher) \(bus) \(server)"],
                environment: ["PATH": "/usr/bin:/bin"], input: pipe.read, output: null, error: null)
            return (pid, pipe.write)
        } catch {
            close(pipe.write)
            throw error
        }
    }

    /// Runs dbus-send to its end (it has its own 25 s reply timeout).
    private static func dbusSend(
        _ arguments: [String], environment: [String: String], folder: URL
    ) -> (status: Int32, output: String, error: String) {
        let output = folder.appendingPathComponent(".dbus-send-\(UUID().uuidString).out")
        let error = folder.appendingPathComponent(".dbus-send-\(UUID().uuidString).err")
        defer {
            unlink(output.path)
            unlink(error.path)
        }
        let outputDescriptor = open(output.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let errorDescriptor = open(error.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { [outputDescriptor, errorDescriptor, null].forEach { close($0) } }
        guard
            let pid = try? Spawn.start(
                "/usr/bin/dbus-send", arguments, environment: environment, input: null, output: outputDescriptor,
                error: errorDescriptor)
        else { return (-1, "", "dbus-send could not be started") }
        let status = Spawn.waitBlocking(pid).status
        let said = { (url: URL) in (try? String(contentsOf: url, encoding: .utf8)) ?? "" }
        return (status, said(output), said(error))
    }

    /// Starts a peer with standard input from /dev/null, `output` as standard output and
    /// standard error appended to `log`.
    private static func spawn(
        _ path: String, _ arguments: [String], environment: [String: String], output: Int32, log: URL
    ) throws -> pid_t {
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        let logDescriptor = open(log.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        defer {
            close(null)
            close(logDescriptor)
        }
        guard logDescriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return try Spawn.start(path, arguments, environment: environment, input: null, output: output, error: logDescriptor)
    }

    /// Stops a peer that did not come up and describes why: its exit (it may be on its way out:
    /// it gets a second), or that it hung since `started`, and the end of its log.
    private static func failure(
        _ peer: String, pid: pid_t, group: Bool, log: URL, started: Date, problem: String? = nil
    ) -> StartFailure {
        let waited = Date().timeIntervalSince(started)
        var ended: (status: Int32, signal: Int32)?
        let grace = Date().addingTimeInterval(1)
        while ended == nil, Date() < grace {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                ended = status & 0x7f == 0 ? ((status >> 8) & 0xff, 0) : (128 + (status & 0x7f), status & 0x7f)
            } else {
                usleep(10_000)
            }
        }
        if ended == nil { terminate(pid, group: group) }
        let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        let tail = said.split(separator: "\n").suffix(15).joined(separator: "\n")
        let what =
            if let ended { "exited (status \(ended.status), signal \(ended.signal))" } else {
                problem ?? "was still running after \(String(format: "%.1f", waited)) s without answering"
            }
        return StartFailure(
            peer: peer,
            description: "\(peer) did not start: it \(what); its log (\(log.lastPathComponent)) ends:\n"
                + (tail.isEmpty ? "(nothing)" : tail))
    }

    /// Sends SIGTERM to `pid` (or its process group), waits up to 5 s for it and, for a group,
    /// for every member; then SIGKILL for what is left. Reaps `pid`, the session's own child.
    private static func terminate(_ pid: pid_t, group: Bool) {
        let targets = group ? Set(members(ofGroup: pid)).union([pid]) : [pid]
        kill(group ? -pid : pid, SIGTERM)
        let deadline = Date().addingTimeInterval(5)
        var reaped = false
        while Date() < deadline {
            if !reaped, waitpid(pid, nil, WNOHANG) == pid { reaped = true }
            if !targets.contains(where: isRunning) { break }
            usleep(10_000)
        }
        for target in targets where isRunning(target) { kill(target, SIGKILL) }
        if group { kill(-pid, SIGKILL) }
        if !reaped { _ = Spawn.waitBlocking(pid) }
    }
}

/// A close-on-exec pipe and a line read from it with a timeout.
private enum Pipe {
    static func make() throws -> (read: Int32, write: Int32) {
        var descriptors: [Int32] = [0, 0]
        guard Glibc.pipe(&descriptors) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EMFILE) }
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        return (descriptors[0], descriptors[1])
    }

    /// The first line `writer` wrote to `descriptor`, or nil when it closed it, ended, or
    /// `timeout` passed. (Another thread's spawn may hold a copy of the write end for a moment,
    /// so the writer's end is checked too, not only the end of the file.)
    static func readLine(_ descriptor: Int32, from writer: pid_t, timeout: Double) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        var bytes: [UInt8] = []
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return nil }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, Int32(min(left, 1) * 1000) + 1)
            if ready < 0, errno == EINTR { continue }
            guard ready >= 0 else { return nil }
            if ready == 0 {
                if !DesktopSession.isRunning(writer) { return nil }
                continue
            }
            var byte: UInt8 = 0
            let count = read(descriptor, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { return nil }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }
}
