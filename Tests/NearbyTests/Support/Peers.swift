import Foundation
import Testing

/// A program running inside a namespace under a small Python watchdog that kills it when our
/// end of its standard input closes, so nothing outlives the test. Stopped by `stop()`.
final class NamespacedProcess: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    let log: URL

    private static let watchdog = """
        import os, signal, subprocess, sys
        unblock = lambda: signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
        unblock()
        # Its own process group, so whatever it starts (wrappers, children) goes with it.
        child = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL, preexec_fn=unblock, start_new_session=True)
        try:
            sys.stdin.buffer.read()
        finally:
            try:
                os.killpg(child.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            child.wait()
        """

    /// Starts `command` in `namespace` with `environment`, its output going to `log`.
    init(namespace: String, command: [String], environment: [String: String], log: URL) throws {
        self.log = log
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let logHandle = try FileHandle(forWritingTo: log)
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
        process.arguments = ["netns", "exec", namespace, "/usr/bin/env", "-i"]
            + environment.map { "\($0.key)=\($0.value)" } + [Peers.python, "-c", Self.watchdog] + command
        process.standardInput = input
        process.standardOutput = logHandle
        process.standardError = logHandle
        try process.run()
        try? logHandle.close()
    }

    /// The log so far.
    var output: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// Waits until the log contains `text`; false after `timeout` seconds or when it exited.
    func waitForOutput(containing text: String, timeout: Double = 30) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if output.contains(text) { return true }
            if !process.isRunning { return output.contains(text) }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return false
    }

    /// Closes its standard input (the watchdog kills the program) and waits; SIGKILL by PID
    /// after a grace period.
    func stop() {
        try? input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}

/// The real LocalSend peers the tests meet.
enum Peers {
    /// The Python that has `localsendd` (installed by scripts/bootstrap), as the interpreter's
    /// own path (not a pyenv shim, which would run it as a grandchild).
    static let python: String = {
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

    /// The environment a peer or our `share` gets: a private HOME and XDG folders under `home`.
    static func environment(home: URL) -> [String: String] {
        [
            "HOME": home.path,
            "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "XDG_STATE_HOME": home.appendingPathComponent("state").path,
            "XDG_RUNTIME_DIR": home.appendingPathComponent("run").path,
            "XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "LANG": "C.UTF-8",
        ]
    }
}

/// localsendd (PyPI), an independent LocalSend implementation, in a namespace.
final class LocalSendDaemon: @unchecked Sendable {
    let process: NamespacedProcess
    let downloads: URL
    let fingerprint: String
    let alias: String

    /// Starts it with HTTPS on port 53317 and waits until it says who it is.
    /// - Parameters:
    ///   - unattended: accepts transfers without asking; without it, it declines (403).
    ///   - pin: the PIN senders must give.
    init(namespace: String, home: URL, alias: String = "Peer Laptop", unattended: Bool = true, pin: String? = nil) throws {
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
            namespace: namespace, command: [Peers.python] + command, environment: Peers.environment(home: home),
            log: home.appendingPathComponent("localsendd.log"))
        guard process.waitForOutput(containing: "fingerprint=") else {
            let log = process.output
            process.stop()
            throw CommandFailure(description: "localsendd did not start (is it installed? run scripts/bootstrap):\n\(log)")
        }
        let line = process.output.split(separator: "\n").first { $0.contains("fingerprint=") } ?? ""
        let start = line.range(of: "fingerprint=")!.upperBound
        fingerprint = String(line[start...].prefix { !$0.isWhitespace })
    }

    func stop() { process.stop() }

    /// The files it has received, by name.
    func receivedFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: downloads.path)) ?? []).sorted()
    }
}

/// Our `share` binary, run inside a namespace as a person would run it.
enum ShareTool {
    /// The `share` built next to the test bundle, or `SHARE_BINARY`.
    static let path: String? = {
        if let path = ProcessInfo.processInfo.environment["SHARE_BINARY"] { return path }
        var folders: [URL] = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        if let first = CommandLine.arguments.first { folders.append(URL(fileURLWithPath: first).deletingLastPathComponent()) }
        return folders.map { $0.appendingPathComponent("share").path }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Runs `share arguments` in `namespace` with a private HOME under `home`.
    static func run(
        _ arguments: [String], namespace: String, home: URL, extraEnvironment: [String: String] = [:]
    ) throws -> Command.Result {
        let binary = try #require(path, "the share executable was not found next to the test bundle")
        let environment = Peers.environment(home: home).merging(extraEnvironment) { $1 }
        return try Command.run(
            "/usr/sbin/ip",
            ["netns", "exec", namespace, "/usr/bin/env", "-i"] + environment.map { "\($0.key)=\($0.value)" } + [binary] + arguments)
    }

    /// Starts `share arguments` in `namespace` in the background, output to a log.
    static func start(_ arguments: [String], namespace: String, home: URL, log: URL) throws -> NamespacedProcess {
        let binary = try #require(path, "the share executable was not found next to the test bundle")
        return try NamespacedProcess(
            namespace: namespace, command: [binary] + arguments, environment: Peers.environment(home: home), log: log)
    }
}

/// A fresh temporary folder per test.
func makeTemporaryFolder(_ name: String = #function) throws -> URL {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("nearby-tests-\(getpid())-\(UUID().uuidString.prefix(8))", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

/// A file of `size` pseudo-random bytes (a fixed pattern per seed), written in blocks.
func writeRandomFile(_ url: URL, size: Int, seed: UInt64 = 1) throws {
    _ = FileManager.default.createFile(atPath: url.path, contents: nil)
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
    var remaining = size
    let blockSize = 1 << 20
    while remaining > 0 {
        let count = min(blockSize, remaining)
        var block = [UInt8](repeating: 0, count: count)
        block.withUnsafeMutableBytes { raw in
            let words = raw.bindMemory(to: UInt64.self)
            for index in 0..<words.count {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                words[index] = state
            }
        }
        try handle.write(contentsOf: block)
        remaining -= count
    }
}

/// True when both files hold the same bytes (compared in blocks).
func filesAreIdentical(_ first: URL, _ second: URL) -> Bool {
    guard let a = FileHandle(forReadingAtPath: first.path), let b = FileHandle(forReadingAtPath: second.path) else { return false }
    defer {
        try? a.close()
        try? b.close()
    }
    while true {
        let blockA = a.readData(ofLength: 1 << 20)
        let blockB = b.readData(ofLength: 1 << 20)
        if blockA != blockB { return false }
        if blockA.isEmpty { return true }
    }
}
