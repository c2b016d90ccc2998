import Foundation

/// A private CUPS scheduler and an IPP Everywhere printer (ippeveprinter) on loopback, each
/// in its own temporary folder, started by the test and stopped by PID.
///
/// ippeveprinter refuses to start without DNS-SD. It is given a private D-Bus (a `dbus-daemon`
/// with its own socket, named by `DBUS_SYSTEM_BUS_ADDRESS`) and `-r off`: Avahi's client is
/// then created in its "connecting" state and nothing is ever advertised, so no avahi-daemon
/// and no system bus are needed.
///
/// Every peer runs under a small Python supervisor that unblocks SIGTERM (blocked in threads
/// started by libdispatch and inherited by children), puts the peer in its own process group,
/// and stops that group when the supervisor gets SIGTERM or its standard input closes (the
/// test process went away).
public final class PrintPeers: @unchecked Sendable {
    public let folder: TemporaryFolder
    public let cupsPort: Int
    public let printerPort: Int
    /// `127.0.0.1:PORT` of the private cupsd: what `CUPS_SERVER` and `PrintService(server:)` take.
    public var server: String { "127.0.0.1:\(cupsPort)" }
    /// Where ippeveprinter keeps the files it was sent.
    public var spool: URL { folder.file("printer-spool") }

    private var supervisors: [(name: String, process: Command.Running)] = []

    public init() throws {
        folder = try TemporaryFolder("print-peers")
        cupsPort = try Loopback.freePort()
        printerPort = try Loopback.freePort()
        do {
            try start()
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    private func start() throws {
        let root = folder.url.path
        for sub in ["cups", "cups/etc", "cups/spool", "cups/cache", "cups/state", "cups/log", "printer-spool"] {
            try FileManager.default.createDirectory(atPath: "\(root)/\(sub)", withIntermediateDirectories: true)
        }
        // cupsd runs filters and backends as lp: they need to reach the temporary folders.
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: root)
        try FileManager.default.createDirectory(atPath: "\(root)/cups/tmp", withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o1777], ofItemAtPath: "\(root)/cups/tmp")

        let busConfig = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>system</type>
              <listen>unix:path=\(root)/bus</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow user="*"/><allow own="*"/><allow send_destination="*"/><allow receive_sender="*"/>
              </policy>
            </busconfig>
            """
        try busConfig.write(toFile: "\(root)/bus.conf", atomically: true, encoding: .utf8)
        try launch("dbus-daemon", ["dbus-daemon", "--config-file=\(root)/bus.conf", "--nofork", "--nopidfile"])
        try waitFor(path: "\(root)/bus", peer: "dbus-daemon", logs: ["dbus-daemon.log"])

        try launch(
            "ippeveprinter",
            [
                "ippeveprinter", "-2", "-r", "off", "-k", "-n", "localhost", "-p", String(printerPort), "-d", spool.path,
                "-f", "application/pdf,image/jpeg,image/pwg-raster", "-s", "1000", "TestPrinter",
            ],
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(root)/bus"])

        let files = """
            ServerRoot \(root)/cups/etc
            RequestRoot \(root)/cups/spool
            CacheDir \(root)/cups/cache
            StateDir \(root)/cups/state
            TempDir \(root)/cups/tmp
            ErrorLog \(root)/cups/log/error_log
            AccessLog \(root)/cups/log/access_log
            PageLog \(root)/cups/log/page_log
            User lp
            Group lp
            SystemGroup root
            Printcap \(root)/cups/printcap
            """
        let config = """
            LogLevel info
            Listen 127.0.0.1:\(cupsPort)
            Browsing No
            WebInterface No
            DefaultAuthType None
            MaxJobs 0
            PreserveJobHistory Yes
            <Location />
              Order allow,deny
              Allow all
            </Location>
            <Policy default>
              <Limit All>
                Order deny,allow
              </Limit>
            </Policy>
            """
        try files.write(toFile: "\(root)/cups/etc/cups-files.conf", atomically: true, encoding: .utf8)
        try config.write(toFile: "\(root)/cups/etc/cupsd.conf", atomically: true, encoding: .utf8)
        try launch(
            "cupsd", ["cupsd", "-f", "-c", "\(root)/cups/etc/cupsd.conf", "-s", "\(root)/cups/etc/cups-files.conf"])
        try waitFor(port: cupsPort, peer: "cupsd", logs: ["cupsd.log", "cups/log/error_log"])
        try waitFor(port: printerPort, peer: "ippeveprinter", logs: ["ippeveprinter.log"])
    }

    /// Adds a queue for the ippeveprinter (driverless, `-m everywhere`); the first is the default.
    public func addQueue(_ name: String, makeDefault: Bool = false) throws {
        try lpadmin(["-p", name, "-E", "-v", "ipp://localhost:\(printerPort)/ipp/print", "-m", "everywhere"])
        if makeDefault { try lpadmin(["-d", name]) }
    }

    private func lpadmin(_ arguments: [String]) throws {
        var lastError: Error?
        for _ in 0..<40 {
            do {
                try Command.output("lpadmin", ["-h", server] + arguments)
                return
            } catch {
                lastError = error
                Thread.sleep(forTimeInterval: 0.25)
            }
        }
        throw lastError!
    }

    /// Stops the queue from accepting jobs, with `reason` as its message (`cupsreject -r`).
    public func reject(_ name: String, reason: String) throws {
        try Command.output("cupsreject", ["-h", server, "-r", reason, name])
        // The scheduler says it rejects before a share asks: once seen on a loaded machine, a
        // job went to a queue a moment after cupsreject had returned.
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let state = (try? Command.output("lpstat", ["-h", server, "-a", name])) ?? ""
            if state.contains("not accepting") { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw PeerError("cupsd still accepts jobs for \(name) 10 s after cupsreject")
    }

    /// Every job the scheduler knows (`lpstat -W all -o`), one line each.
    public func jobs() throws -> [String] {
        try Command.output("lpstat", ["-h", server, "-W", "all", "-o"]).split(separator: "\n").map(String.init)
    }

    /// The files ippeveprinter received.
    public func spooledFiles() -> [URL] {
        ((try? FileManager.default.contentsOfDirectory(at: spool, includingPropertiesForKeys: nil)) ?? [])
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// Stops every peer by its supervisor's PID, newest first, and removes the folders.
    public func stop() {
        for supervisor in supervisors.reversed() {
            supervisor.process.kill(SIGTERM)
            if !supervisor.process.wait(timeout: 5) { supervisor.process.kill(SIGKILL) }
            supervisor.process.waitUntilExit()
            supervisor.process.remove()
        }
        supervisors = []
        folder.remove()
    }

    var log: String {
        (try? String(contentsOfFile: folder.file("cups/log/error_log").path, encoding: .utf8)) ?? ""
    }

    private func launch(_ name: String, _ command: [String], environment: [String: String] = [:]) throws {
        // Its standard input is a pipe kept open until `stop()`: it closes when the test process goes away.
        let log = folder.file("\(name).log")
        let process = try Command.start(
            "/usr/bin/python3", [Self.supervisor] + command,
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, input: .pipe, output: log, error: log)
        supervisors.append((name, process))
    }

    /// Waits until `peer` makes `path` (a socket); when it never does, the error says why in the
    /// peer's own words.
    private func waitFor(path: String, peer: String, logs: [String]) throws {
        for _ in 0..<200 {
            if FileManager.default.fileExists(atPath: path) { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw PeerError("\(peer) did not start: \(path) did not appear\n" + logTails(logs))
    }

    /// The last lines of each log, headed by its name.
    private func logTails(_ logs: [String]) -> String {
        logs.map { name -> String in
            let text = (try? String(contentsOfFile: folder.file(name).path, encoding: .utf8)) ?? ""
            let tail = text.split(separator: "\n").suffix(15).joined(separator: "\n")
            return "--- \(name)\n" + (tail.isEmpty ? "(empty)" : tail)
        }.joined(separator: "\n")
    }

    /// Waits until `peer` listens on `port`; when it never does, the error says why in the
    /// peer's own words: the last lines of its logs.
    private func waitFor(port: Int, peer: String, logs: [String]) throws {
        for _ in 0..<200 {
            if Self.canConnect(port: port) { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw PeerError("\(peer) did not start: nothing listens on 127.0.0.1:\(port)\n" + logTails(logs))
    }

    private static func canConnect(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// `Tests/Fixtures/supervise.py`: runs one peer in its own process group and stops the group
    /// on SIGTERM or when standard input closes.
    static let supervisor = Fixture.url("supervise.py").path
}
