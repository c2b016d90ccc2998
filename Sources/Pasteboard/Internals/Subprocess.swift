import CGlibcShims
import Foundation
import ShareSheet

/// Starts the clipboard tools with `posix_spawn`: signals unblocked and at their defaults in
/// the child (libdispatch threads block SIGTERM, which children would inherit), descriptors
/// closed on exec except the three given.
enum Subprocess {
    /// The first executable called `name` on `PATH`.
    static func find(_ name: String, environment: [String: String]) -> String? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Starts `path` with `arguments`; `newSession` puts it in a session of its own, so it
    /// outlives the terminal and this process. `inherited` becomes its descriptor 3 (the lock
    /// of the files kept for the clipboard, held for as long as it lives).
    static func spawn(
        _ path: String, _ arguments: [String], environment: [String: String], standardInput: Int32,
        standardOutput: Int32, standardError: Int32, newSession: Bool = false, inherited: Int32? = nil
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, standardInput, 0)
        posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
        posix_spawn_file_actions_adddup2(&actions, standardError, 2)
        if let inherited { posix_spawn_file_actions_adddup2(&actions, inherited, 3) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigfillset(&defaults)
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var flags = Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        if newSession { flags |= cglibc_posix_spawn_setsid_flag() }
        posix_spawnattr_setflags(&attributes, flags)

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard code == 0 else {
            throw ShareError(.unavailable, "\(path): cannot start: \(String(cString: strerror(code)))")
        }
        return pid
    }

    /// What a finished run printed and how it ended.
    struct Output {
        var status: Int32
        var standardOutput: Data
        var standardError: String
    }

    /// Runs a tool to its end, feeding `input` (nothing when nil) and collecting its output;
    /// killed after `timeout` seconds.
    static func run(
        _ path: String, _ arguments: [String], input: Data? = nil, environment: [String: String], timeout: Double = 15
    ) throws -> Output {
        let inputPipe = try makePipe()
        let outputPipe = try makePipe()
        let errorPipe = try makePipe()
        let pid: pid_t
        do {
            pid = try spawn(
                path, arguments, environment: environment, standardInput: inputPipe.read,
                standardOutput: outputPipe.write, standardError: errorPipe.write)
        } catch {
            [inputPipe.read, inputPipe.write, outputPipe.read, outputPipe.write, errorPipe.read, errorPipe.write].forEach { close($0) }
            throw error
        }
        close(inputPipe.read)
        close(outputPipe.write)
        close(errorPipe.write)
        // Feed input on a thread, so a tool that writes before it reads cannot deadlock.
        let writer = inputPipe.write
        let inputData = input ?? Data()
        let feeding = Thread {
            inputData.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let count = Glibc.write(writer, bytes.baseAddress! + offset, bytes.count - offset)
                    if count < 0 { if errno == EINTR { continue } else { break } }
                    offset += count
                }
            }
            close(writer)
        }
        feeding.start()
        var output = Data()
        var errors = Data()
        var open = [outputPipe.read, errorPipe.read]
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var timedOut = false
        while !open.isEmpty {
            var descriptors = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let remaining = Int32(max(0, deadline.timeIntervalSinceNow) * 1000)
            let ready = poll(&descriptors, nfds_t(descriptors.count), remaining)
            if ready < 0 { if errno == EINTR { continue } else { break } }
            if ready == 0 {
                timedOut = true
                kill(pid, SIGKILL)
                break
            }
            for descriptor in descriptors where descriptor.revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(descriptor.fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    if descriptor.fd == outputPipe.read { output.append(contentsOf: buffer[0..<count]) } else { errors.append(contentsOf: buffer[0..<count]) }
                } else if count == 0 || errno != EINTR {
                    open.removeAll { $0 == descriptor.fd }
                }
            }
        }
        close(outputPipe.read)
        close(errorPipe.read)
        let status = wait(pid)
        if timedOut {
            throw ShareError(.temporaryFailure, "\((path as NSString).lastPathComponent): no answer within \(Int(timeout)) s")
        }
        return Output(status: status, standardOutput: output, standardError: String(decoding: errors, as: UTF8.self))
    }

    /// Waits for `pid` and returns its exit status (128 + signal when killed).
    static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return -1 }
        }
        if status & 0x7f == 0 { return (status >> 8) & 0xff }
        return 128 + (status & 0x7f)
    }

    static func makePipe() throws -> (read: Int32, write: Int32) {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else {
            throw ShareError(.ioError, "pasteboard: cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        return (descriptors[0], descriptors[1])
    }

    /// Runs a tool that forks a background copy of itself which keeps the clipboard (xclip,
    /// xsel, wl-copy), and returns its exit status and error output. The forked copy
    /// keeps the descriptors it was given, so its output goes to /dev/null and a file, never to
    /// a pipe this process would wait on.
    static func runForking(
        _ tool: String, _ arguments: [String], input: Data, environment: [String: String], inherited: Int32? = nil
    ) throws -> (status: Int32, message: String) {
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("sharesheet-clipboard-\(UUID().uuidString)")
        let errors = open(errorFile.path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard errors >= 0 else { throw ShareError(.ioError, "clipboard: cannot make a temporary file") }
        unlink(errorFile.path)
        defer { close(errors) }
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { close(null) }
        let pipe = try makePipe()
        let pid: pid_t
        do {
            pid = try spawn(
                tool, arguments, environment: environment, standardInput: pipe.read, standardOutput: null,
                standardError: errors, newSession: true, inherited: inherited)
        } catch {
            close(pipe.read)
            close(pipe.write)
            throw error
        }
        close(pipe.read)
        input.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = Glibc.write(pipe.write, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0 { if errno == EINTR { continue } else { break } }
                offset += count
            }
        }
        close(pipe.write)
        let status = wait(pid)
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = pread(errors, &buffer, buffer.count, 0)
        let message = String(decoding: buffer[0..<max(0, count)], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return (status, message)
    }
}
