// Test support shared by the test targets that run the built `share` binary in a temporary home
// and start helper programs by PID.
import Foundation
import Testing

/// A temporary home with its own XDG folders, removed by `remove()`: the one kind of private
/// home the test targets give the programs they run (`share`, peers, tools). Its layout is
/// ``environment(home:)``'s.
public struct TemporaryHome: Sendable {
    /// The test's own folder: `home/` and the files the test makes beside it.
    public let root: URL

    /// Makes a home under the temporary directory, named `PREFIX-tests-UUID`.
    public init(prefix: String) throws {
        root = try TemporaryFolder("\(prefix)-tests").url
    }

    /// HOME; the XDG folders are inside it.
    public var home: URL { root.appendingPathComponent("home", isDirectory: true) }
    public var pictures: URL { home.appendingPathComponent("Pictures", isDirectory: true) }
    public var videos: URL { home.appendingPathComponent("Videos", isDirectory: true) }
    /// XDG_CONFIG_HOME.
    public var configHome: URL { home.appendingPathComponent("config", isDirectory: true) }
    /// XDG_DATA_HOME.
    public var dataHome: URL { home.appendingPathComponent("data", isDirectory: true) }
    public var configFile: URL { configHome.appendingPathComponent("sharesheet/config") }

    /// The environment a `share` run gets: XDG folders inside this home, no display.
    public var environment: [String: String] { Self.environment(home: home) }

    /// The environment of a program run in the private home `home`: HOME, the XDG folders
    /// inside it (`config`, `data`, `cache`, `state`, `runtime`), the test's PATH, a UTF-8
    /// locale, no color, a dumb terminal 80 columns wide; nothing else of the test's own. No
    /// folder is made: the programs make what they write to.
    public static func environment(home: URL) -> [String: String] {
        var environment = [
            "HOME": home.path, "LANG": "C.UTF-8", "NO_COLOR": "1", "TERM": "dumb", "COLUMNS": "80",
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
        ]
        for (key, name) in [
            ("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"), ("XDG_CACHE_HOME", "cache"),
            ("XDG_STATE_HOME", "state"), ("XDG_RUNTIME_DIR", "runtime"),
        ] {
            environment[key] = home.appendingPathComponent(name).path
        }
        return environment
    }

    /// Writes a file in the test's own folder (outside the library).
    public func file(_ name: String, _ data: Data) throws -> URL {
        let url = root.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }

    /// Every entry of a folder, hidden ones included; empty when it does not exist.
    public func entries(_ folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    /// Removes the home; tried again once, in case a file appeared while it was being emptied.
    public func remove() { TemporaryFolder(existing: root).remove() }
}

/// Runs the built `share` executable.
public enum Share {
    /// The `share` executable was not found next to the test bundle.
    public struct MissingBinary: Error, CustomStringConvertible {
        public init() {}
        public var description: String { "the share executable was not found next to the test bundle" }
    }

    public struct Run {
        public var status: Int32
        public var signal: Int32
        public var output: Data
        public var standardError: String
        public var standardOutput: String { String(decoding: output, as: UTF8.self) }
    }

    /// A started run: its PID and where its output goes.
    public struct Started {
        public var pid: pid_t
        public var output: URL
        public var error: URL
    }

    /// The `share` built next to the test bundle, or `SHARE_BINARY`.
    public static let url: URL? = {
        if let path = ProcessInfo.processInfo.environment["SHARE_BINARY"] { return URL(fileURLWithPath: path) }
        return product("share")
    }()

    /// A product SwiftPM built next to the test bundle (`share`, `reading-list-writer`), or nil.
    public static func product(_ name: String) -> URL? {
        var folders = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        if let executable = Bundle.main.executableURL { folders.append(executable.deletingLastPathComponent()) }
        if let first = CommandLine.arguments.first { folders.append(URL(fileURLWithPath: first).deletingLastPathComponent()) }
        return folders.map { $0.appendingPathComponent(name) }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// A program built next to `share` (`sheet-window-app`, say).
    public static func sibling(_ name: String) throws -> URL {
        guard let url else { throw MissingBinary() }
        return url.deletingLastPathComponent().appendingPathComponent(name)
    }

    /// Starts `share` (or `program`) in `home` with output into files; the caller waits with `finish`.
    public static func start(
        _ arguments: [String], home: TemporaryHome, extra: [String: String] = [:], program: URL? = nil
    ) throws -> Started {
        guard let binary = program ?? url else { throw MissingBinary() }
        let id = UUID().uuidString
        let output = home.root.appendingPathComponent(".out-\(id)")
        let error = home.root.appendingPathComponent(".err-\(id)")
        let outputDescriptor = open(output.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let errorDescriptor = open(error.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { [outputDescriptor, errorDescriptor, null].forEach { close($0) } }
        let pid = try Spawn.start(
            binary.path, arguments, environment: home.environment.merging(extra) { _, given in given },
            directory: home.root.path, input: null, output: outputDescriptor, error: errorDescriptor)
        return Started(pid: pid, output: output, error: error)
    }

    /// Waits for a started run (killed after `timeout` seconds, failing the test).
    public static func finish(_ started: Started, timeout: Double = 120) async throws -> Run {
        var ended = await Spawn.wait(started.pid, until: Date().addingTimeInterval(timeout))
        if ended == nil {
            Issue.record("share did not end within \(timeout) s")
            kill(started.pid, SIGKILL)
            ended = Spawn.waitBlocking(started.pid)
        }
        defer {
            try? FileManager.default.removeItem(at: started.output)
            try? FileManager.default.removeItem(at: started.error)
        }
        return Run(
            status: ended!.status, signal: ended!.signal, output: try Data(contentsOf: started.output),
            standardError: String(decoding: try Data(contentsOf: started.error), as: UTF8.self))
    }

    /// Runs `share` to its end.
    public static func run(
        _ arguments: [String], home: TemporaryHome, extra: [String: String] = [:], timeout: Double = 120
    ) async throws -> Run {
        try await finish(start(arguments, home: home, extra: extra), timeout: timeout)
    }
}



/// Starts programs with `posix_spawn` and waits for them with `waitpid` on their own PID, so no
/// other thread's reaping (Foundation's `Process` monitor) can lose an exit. Signals are
/// unblocked and at their defaults in the child. The layer under ``Command``, which runs a
/// program to its end; use this directly for descriptors of the test's own (a watchdog's pipe).
public enum Spawn {
    /// Starts `path` with `arguments`; the descriptors become the child's 0, 1 and 2.
    public static func start(
        _ path: String, _ arguments: [String], environment: [String: String], directory: String? = nil,
        input: Int32, output: Int32, error: Int32
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, error, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGPIPE, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var program = path
        var words = arguments
        if let directory {
            // posix_spawn has no working-directory action before glibc 2.29's _np one: use env -C.
            program = "/usr/bin/env"
            words = ["-C", directory, path] + arguments
        }
        let argv = ([program] + words).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
        guard code == 0 else { throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO) }
        return pid
    }

    /// Waits for `pid` without blocking a thread for long; nil when it is still running at `deadline`.
    public static func wait(_ pid: pid_t, until deadline: Date) async -> (status: Int32, signal: Int32)? {
        while true {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                return status & 0x7f == 0 ? ((status >> 8) & 0xff, 0) : (128 + (status & 0x7f), status & 0x7f)
            }
            if result < 0, errno != EINTR { return (-1, 0) }
            if Date() > deadline { return nil }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Blocks until `pid` ends.
    public static func waitBlocking(_ pid: pid_t) -> (status: Int32, signal: Int32) {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return status & 0x7f == 0 ? ((status >> 8) & 0xff, 0) : (128 + (status & 0x7f), status & 0x7f)
    }
}

