// The LocalSend receiver the Nearby tests and the window tests send to, and the watchdog that runs
// a background program inside a network namespace.
import Foundation
import Testing

/// A background program running inside a network namespace under a small Python watchdog that
/// kills it (and its process group) when our end of its standard input closes, so nothing
/// outlives the test. Stopped by `stop()`. Used by the Nearby tests (localsendd, `share receive`)
/// and by ``LocalSendPeer``; to run a program and get its own PID and exit status, use
/// ``NetworkPair/start(_:_:namespace:environment:outputIn:directory:)`` instead.
public final class NamespacedProcess: @unchecked Sendable {
    private let process: Command.Running
    /// The file its standard output and standard error go to.
    public let log: URL

    /// `Tests/Fixtures/watchdog.py`: the program in a group of its own, killed with it when our
    /// end of its standard input closes.
    private static let watchdog = Fixture.path("watchdog.py")

    /// Starts `command` (a program's path and its arguments) in `namespace` with exactly
    /// `environment`, its output going to `log`.
    public init(namespace: String, command: [String], environment: [String: String], log: URL) throws {
        self.log = log
        process = try Command.start(
            "/usr/sbin/ip",
            ["netns", "exec", namespace, "/usr/bin/env", "-i"] + environment.map { "\($0.key)=\($0.value)" }
                + [LocalSendPeer.python, Self.watchdog] + command,
            input: .pipe, output: log, error: log)
    }

    /// The log so far.
    public var output: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// Waits until the log contains `text`; false after `timeout` seconds or when it exited.
    public func waitForOutput(containing text: String, timeout: Double = 30) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if output.contains(text) { return true }
            if !process.isRunning { return output.contains(text) }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return false
    }

    /// Closes its standard input (the watchdog kills the program) and waits; SIGTERM to the
    /// watchdog after a second (it still kills the program), SIGKILL by PID after five.
    public func stop() {
        process.remove()
        // A child started between our pipe() and its close-on-exec flag may hold the writing end
        // too: then the watchdog is told by SIGTERM, which still kills the program's group;
        // SIGKILL only as the last resort.
        if !process.wait(timeout: 1) { process.kill(SIGTERM) }
        if !process.wait(timeout: 4) { process.kill(SIGKILL) }
        process.waitUntilExit()
    }
}

/// localsendd (PyPI), an independent LocalSend implementation, in a namespace: the receiver our
/// AirDrop sends to. Used by the Nearby tests and the window tests.
public final class LocalSendPeer: @unchecked Sendable {
    /// The Python that has `localsendd` (installed by scripts/bootstrap), as the interpreter's
    /// own path (not a pyenv shim, which would run it as a grandchild).
    public static let python: String = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates = ["/root/.pyenv/shims/python3", "/usr/local/bin/python3", "/usr/bin/python3"]
            + path.split(separator: ":").map { "\($0)/python3" }
        for candidate in candidates {
            guard FileManager.default.isExecutableFile(atPath: candidate),
                let result = try? Command.run(candidate, ["-c", "import sys, localsendd; print(sys.executable)"]), result.status == 0
            else { continue }
            let executable = result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
            return executable.isEmpty ? candidate : executable
        }
        return "/usr/bin/python3"
    }()

    /// The watchdog running it; its ``NamespacedProcess/output`` is localsendd's log.
    public let process: NamespacedProcess
    /// The folder received files land in.
    public let downloads: URL
    /// The fingerprint of its certificate, as it announces it (a `--to` value).
    public let fingerprint: String
    /// The name it announces (a `--to` value).
    public let alias: String

    /// Starts it with HTTPS on port 53317 and waits until it says who it is.
    /// - Parameters:
    ///   - namespace: where it runs, usually ``NetworkPair/theirs``.
    ///   - home: its own folder (created if needed): HOME, the downloads, its socket and log.
    ///   - alias: the name it announces.
    ///   - unattended: accepts transfers without asking; without it, it declines (403).
    ///   - pin: the PIN senders must give.
    /// - Throws: ``PeerError`` with its log when it does not start.
    public init(namespace: String, home: URL, alias: String = "Peer Laptop", unattended: Bool = true, pin: String? = nil) throws {
        self.alias = alias
        downloads = home.appendingPathComponent("Downloads", isDirectory: true)
        for folder in ["Downloads", "state", "run", "config", "data"] {
            try FileManager.default.createDirectory(at: home.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        var command = [
            "-m", "localsendd", "--port", "53317", "--download-dir", downloads.path, "--alias", alias,
            "--socket", home.appendingPathComponent("run/localsendd.sock").path, "--log-level", "debug", "--no-log-time",
            "--encryption",
        ]
        command.append(unattended ? "--unattended" : "--no-unattended")
        if let pin { command += ["--pin", pin] }
        process = try NamespacedProcess(
            namespace: namespace, command: [Self.python] + command, environment: TemporaryHome.environment(home: home),
            log: home.appendingPathComponent("localsendd.log"))
        guard process.waitForOutput(containing: "fingerprint=") else {
            let log = process.output
            process.stop()
            throw PeerError("localsendd did not start (is it installed? run scripts/bootstrap):\n\(log)")
        }
        let line = process.output.split(separator: "\n").first { $0.contains("fingerprint=") } ?? ""
        let start = line.range(of: "fingerprint=")!.upperBound
        fingerprint = String(line[start...].prefix { !$0.isWhitespace })
    }

    /// Stops it (and the watchdog) by PID.
    public func stop() { process.stop() }

    /// The files it has received, by name.
    public func receivedFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: downloads.path)) ?? []).sorted()
    }
}
