import Foundation
import Testing

/// Small real files for the tests.
enum Fixtures {
    /// A 4×3 PNG made with gdk-pixbuf.
    static let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAAA3NCSVQICAjb4U/gAAAAFElEQVQImWM0TjvDAANMDEgAhQMAM5wBa9Gt9g8AAAAASUVORK5CYII=")!

    /// A 4×3 JPEG made with gdk-pixbuf.
    static let jpeg = Data(base64Encoded: "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAMCAgMCAgMDAwMEAwMEBQgFBQQEBQoHBwYIDAoMDAsKCwsNDhIQDQ4RDgsLEBYQERMUFRUVDA8XGBYUGBIUFRT/2wBDAQMEBAUEBQkFBQkUDQsNFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBT/wAARCAADAAQDASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDy+iiiv6gPyQ//2Q==")!
}

/// A temporary home with its own XDG folders, removed at the end of the test.
struct TemporaryHome {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("pasteboard-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    var home: URL { root.appendingPathComponent("home", isDirectory: true) }
    var pictures: URL { home.appendingPathComponent("Pictures", isDirectory: true) }
    var videos: URL { home.appendingPathComponent("Videos", isDirectory: true) }
    var configFile: URL { home.appendingPathComponent("config/sharesheet/config") }

    /// The environment a `share` run gets: XDG folders inside this home, no display.
    var environment: [String: String] {
        var environment = [
            "HOME": home.path, "LANG": "C.UTF-8", "NO_COLOR": "1", "TERM": "dumb", "COLUMNS": "80",
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
        ]
        for (key, name) in [("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"), ("XDG_CACHE_HOME", "cache")] {
            environment[key] = home.appendingPathComponent(name).path
        }
        return environment
    }

    /// Writes a file in the test's own folder (outside the library).
    func file(_ name: String, _ data: Data) throws -> URL {
        let url = root.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }

    /// Every entry of a folder, hidden ones included; empty when it does not exist.
    func entries(_ folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    /// Removes the home; tried again once, in case a file appeared while it was being emptied.
    func remove() {
        if (try? FileManager.default.removeItem(at: root)) == nil { try? FileManager.default.removeItem(at: root) }
    }
}

/// Runs the built `share` executable.
enum Share {
    struct Run {
        var status: Int32
        var signal: Int32
        var output: Data
        var standardError: String
        var standardOutput: String { String(decoding: output, as: UTF8.self) }
    }

    /// A started run: its PID and where its output goes.
    struct Started {
        var pid: pid_t
        var output: URL
        var error: URL
    }

    /// The `share` built next to the test bundle, or `SHARE_BINARY`.
    static let url: URL? = {
        if let path = ProcessInfo.processInfo.environment["SHARE_BINARY"] { return URL(fileURLWithPath: path) }
        var folders = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        if let executable = Bundle.main.executableURL { folders.append(executable.deletingLastPathComponent()) }
        if let first = CommandLine.arguments.first { folders.append(URL(fileURLWithPath: first).deletingLastPathComponent()) }
        return folders.map { $0.appendingPathComponent("share") }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// Starts `share` in `home` with output into files; the caller waits with `finish`.
    static func start(_ arguments: [String], home: TemporaryHome, extra: [String: String] = [:]) throws -> Started {
        let binary = try #require(url, "the share executable was not found next to the test bundle")
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
    static func finish(_ started: Started, timeout: Double = 120) async throws -> Run {
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
    static func run(
        _ arguments: [String], home: TemporaryHome, extra: [String: String] = [:], timeout: Double = 120
    ) async throws -> Run {
        try await finish(start(arguments, home: home, extra: extra), timeout: timeout)
    }
}


/// A private X server (Xvfb) on a display number it picks itself, stopped by its PID.
final class VirtualDisplay {
    let pid: pid_t
    /// `:N`.
    let display: String

    init() throws {
        // -displayfd 1: Xvfb picks a free display number and prints it when it accepts clients.
        let pipe = try Self.pipe()
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { close(null) }
        pid = try Spawn.start(
            "/usr/bin/Xvfb", ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "640x480x24"],
            environment: ["PATH": "/usr/bin:/bin"], input: null, output: pipe.write, error: null)
        close(pipe.write)
        var text = ""
        var byte: UInt8 = 0
        while read(pipe.read, &byte, 1) == 1, byte != UInt8(ascii: "\n") { text.append(Character(UnicodeScalar(byte))) }
        close(pipe.read)
        guard !text.isEmpty, Int(text) != nil else {
            kill(pid, SIGKILL)
            _ = Spawn.waitBlocking(pid)
            throw POSIXError(.ECHILD)
        }
        display = ":" + text
    }

    private static func pipe() throws -> (read: Int32, write: Int32) {
        var descriptors: [Int32] = [0, 0]
        guard Glibc.pipe(&descriptors) == 0 else { throw POSIXError(.EMFILE) }
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        return (descriptors[0], descriptors[1])
    }

    /// The clipboard owners serving this display, by PID (from /proc).
    func ownerProcesses() -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(pid_t.init).filter { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            let words = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return words.first?.hasSuffix("sharesheet-clipboard-owner") == true && words.dropFirst() == ["--display", display]
        }
    }

    /// The xclip processes (the owners xclip forks) running on this display, by PID.
    func xclipProcesses() -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(pid_t.init).filter { pid in
            guard let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"),
                String(decoding: command.split(separator: 0).first ?? [], as: UTF8.self).hasSuffix("xclip"),
                let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ")
            else { return false }
            return environment.split(separator: 0).contains { Array($0) == Array("DISPLAY=\(display)".utf8) }
        }
    }

    /// Stops the owners, then the server (SIGTERM, so it removes its lock), each by its PID.
    func stop() {
        for pid in ownerProcesses() + xclipProcesses() { kill(pid, SIGKILL) }
        kill(pid, SIGTERM)
        _ = Spawn.waitBlocking(pid)
    }
}

/// Runs `xclip -o -selection clipboard -t TARGET` on `display` and returns what it printed.
func xclipOutput(_ target: String, display: String) throws -> (status: Int32, data: Data) {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("xclip-out-\(UUID().uuidString)")
    let output = open(file.path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    let null = open("/dev/null", O_RDWR | O_CLOEXEC)
    defer {
        close(output)
        close(null)
        unlink(file.path)
    }
    let pid = try Spawn.start(
        "/usr/bin/xclip", ["-o", "-selection", "clipboard", "-t", target],
        environment: ["DISPLAY": display, "PATH": "/usr/bin:/bin"], input: null, output: output, error: null)
    let status = Spawn.waitBlocking(pid).status
    return (status, try Data(contentsOf: file))
}

/// Starts programs with `posix_spawn` and waits for them with `waitpid` on their own PID, so no
/// other thread's reaping (Foundation's `Process` monitor) can lose an exit. Signals are
/// unblocked and at their defaults in the child.
enum Spawn {
    /// Starts `path` with `arguments`; the descriptors become the child's 0, 1 and 2.
    static func start(
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
    static func wait(_ pid: pid_t, until deadline: Date) async -> (status: Int32, signal: Int32)? {
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
    static func waitBlocking(_ pid: pid_t) -> (status: Int32, signal: Int32) {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return status & 0x7f == 0 ? ((status >> 8) & 0xff, 0) : (128 + (status & 0x7f), status & 0x7f)
    }
}
