import CGlibcShims
import Foundation
import Testing

/// Small real files for the tests.
enum Fixtures {
    /// A 4×3 PNG made with gdk-pixbuf.
    static let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAAA3NCSVQICAjb4U/gAAAAFElEQVQImWM0TjvDAANMDEgAhQMAM5wBa9Gt9g8AAAAASUVORK5CYII=")!

    /// A 4×3 JPEG made with gdk-pixbuf.
    static let jpeg = Data(base64Encoded: "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAMCAgMCAgMDAwMEAwMEBQgFBQQEBQoHBwYIDAoMDAsKCwsNDhIQDQ4RDgsLEBYQERMUFRUVDA8XGBYUGBIUFRT/2wBDAQMEBAUEBQkFBQkUDQsNFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBT/wAARCAADAAQDASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDy+iiiv6gPyQ//2Q==")!

    /// The start of an MP4 file: an `ftyp` box (ISO base media, brand isom), then an `mdat` box.
    static let mp4Header: Data = {
        var bytes: [UInt8] = [0, 0, 0, 0x18] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isomiso2".utf8)
        bytes += [0, 0, 0, 0x10] + Array("mdat".utf8) + Array("videodat".utf8)
        return Data(bytes)
    }()

    /// An MP4 header followed by pseudo-random bytes, `size` bytes in all.
    static func mp4(size: Int) -> Data {
        var words = [UInt64](repeating: 0, count: (size + 7) / 8)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for index in words.indices {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            words[index] = state
        }
        var data = words.withUnsafeBytes { Data($0.prefix(size)) }
        data.replaceSubrange(0..<mp4Header.count, with: mp4Header)
        return data
    }
}

/// A temporary home with its own XDG folders, removed at the end of the test.
struct TemporaryHome {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("photos-tests-\(UUID().uuidString)", isDirectory: true)
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

/// True when two files have the same bytes. Regions that are holes in both files (found with
/// SEEK_DATA/SEEK_HOLE) read as zeros in both, so only the data regions are read and compared.
func sameContent(_ first: URL, _ second: URL) throws -> Bool {
    let a = open(first.path, O_RDONLY)
    let b = open(second.path, O_RDONLY)
    defer { close(a); close(b) }
    var infoA = stat(), infoB = stat()
    guard a >= 0, b >= 0, fstat(a, &infoA) == 0, fstat(b, &infoB) == 0, infoA.st_size == infoB.st_size else { return false }
    let size = Int64(infoA.st_size)
    func dataRegions(_ descriptor: Int32) -> [Range<Int64>] {
        var regions: [Range<Int64>] = []
        var offset: Int64 = 0
        while offset < size {
            let start = cglibc_seek_data(descriptor, offset)
            if start < 0 { break }
            let end = min(max(cglibc_seek_hole(descriptor, start), start + 1), size)
            regions.append(start..<end)
            offset = end
        }
        return regions
    }
    var bufferA = [UInt8](repeating: 0, count: 1 << 20), bufferB = bufferA
    for region in dataRegions(a) + dataRegions(b) {
        var offset = region.lowerBound
        while offset < region.upperBound {
            let length = Int(min(Int64(bufferA.count), region.upperBound - offset))
            let readA = pread(a, &bufferA, length, off_t(offset))
            let readB = pread(b, &bufferB, length, off_t(offset))
            guard readA == length, readB == length, bufferA[0..<length] == bufferB[0..<length] else { return false }
            offset += Int64(length)
        }
    }
    return true
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
