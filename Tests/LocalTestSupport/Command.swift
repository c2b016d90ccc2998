// Running a helper program to its end and collecting what it printed, for the test targets that
// meet real peers (Mail, Nearby, the window).
import Foundation
import Testing

/// A test peer or helper program that failed, with what it said. Thrown by ``SMTPPeer``,
/// ``NetworkPair``, ``LocalSendPeer`` and the Mail tests' own helpers.
public struct PeerError: Error, CustomStringConvertible {
    public var description: String

    /// An error that reads `description`.
    public init(_ description: String) { self.description = description }
}

/// The one process runner of the test targets: starts programs (the built `share`, `ip`,
/// openssl, python, the peers) with `posix_spawn` through ``Spawn``, waits for them by their own
/// PID and collects what they printed. Output and errors go to files, so a chatty program never
/// blocks on a full pipe and a client whose server forks and keeps its descriptors (tmux,
/// wl-copy, xclip) still ends. Used by every test target and by ``SMTPPeer``, ``NetworkPair``,
/// ``NamespacedProcess`` and ``PythonEmail``.
public enum Command {
    /// How a program ended and what it printed.
    public struct Result: CustomStringConvertible, Sendable {
        /// The exit status, or the signal number when a signal ended it (as Foundation's
        /// `Process` reported it).
        public var status: Int32
        /// The signal that ended it; 0 when it exited.
        public var signal: Int32
        /// Standard output, as bytes.
        public var output: Data
        public var standardError: String
        /// Standard output as text.
        public var standardOutput: String {
            get { String(decoding: output, as: UTF8.self) }
            set { output = Data(newValue.utf8) }
        }
        public var description: String {
            "\(signal == 0 ? "exit \(status)" : "signal \(signal)")\n--- stdout\n\(standardOutput)\n--- stderr\n\(standardError)"
        }

        /// A result read some other way (a run that was also measured, say).
        public init(status: Int32, signal: Int32 = 0, standardOutput: String, standardError: String) {
            self.init(status: status, signal: signal, output: Data(standardOutput.utf8), standardError: standardError)
        }

        /// A result with standard output as bytes.
        public init(status: Int32, signal: Int32 = 0, output: Data, standardError: String) {
            self.status = status
            self.signal = signal
            self.output = output
            self.standardError = standardError
        }
    }

    /// Where a program's standard input comes from: never a terminal.
    public enum Input: Sendable {
        /// `/dev/null`: empty.
        case null
        /// A file holding these bytes.
        case data(Data)
        /// A file or device that exists already (`/dev/zero`, say).
        case file(String)
        /// A pipe whose writing end is ``Running/input``: closing it is the program's end of
        /// input (a peer that stops when its standard input closes).
        case pipe
    }

    /// A program started by ``start(_:_:environment:in:input:output:error:)``: its PID, the files
    /// its output goes to, and a wait by that PID. It is reaped once, here, and signalled only
    /// while it has not been reaped, so a signal never reaches a PID the kernel gave to someone
    /// else.
    public final class Running: @unchecked Sendable {
        /// Its PID.
        public let pid: pid_t
        /// The program and its arguments, for messages.
        public let command: [String]
        /// The file its standard output goes to.
        public let output: URL
        /// The file its standard error goes to (the same as ``output`` when both were given one).
        public let error: URL
        /// The writing end of its standard input when it was started with ``Input/pipe``.
        public let input: FileHandle?
        private let temporary: [URL]
        private let lock = NSLock()
        private var ended: (status: Int32, signal: Int32)?
        private var usage = rusage()

        init(pid: pid_t, command: [String], output: URL, error: URL, input: FileHandle?, temporary: [URL]) {
            self.pid = pid
            self.command = command
            self.output = output
            self.error = error
            self.input = input
            self.temporary = temporary
        }

        /// Reaps it if it has ended (without waiting); its status and signal once it has.
        private func poll() -> (status: Int32, signal: Int32)? {
            lock.lock()
            defer { lock.unlock() }
            if let ended { return ended }
            var status: Int32 = 0
            let result = wait4(pid, &status, WNOHANG, &usage)
            if result == pid {
                ended = status & 0x7f == 0 ? ((status >> 8) & 0xff, 0) : (status & 0x7f, status & 0x7f)
            } else if result < 0, errno == ECHILD {
                ended = (-1, 0)
            }
            return ended
        }

        /// True until it has ended (and been reaped).
        public var isRunning: Bool { poll() == nil }

        /// Its exit status, or the signal number when a signal ended it (as Foundation's
        /// `Process` reports it); -1 while it runs.
        public var terminationStatus: Int32 { poll()?.status ?? -1 }

        /// The signal that ended it; 0 when it exited or still runs.
        public var terminationSignal: Int32 { poll()?.signal ?? 0 }

        /// The most memory it held, once it has ended: the high-water mark of its own resident
        /// set (`VmHWM`), as ``watchPeakMemory()`` read it while it ran; 0 while it runs.
        ///
        /// Not `wait4`'s `ru_maxrss`: `posix_spawn` starts a child in its parent's memory until
        /// it runs the program, and the kernel keeps that memory's high-water mark too, so the
        /// figure was the test runner's own peak whenever that was higher (693 MiB for a
        /// `share` that held 55 MiB, depending on which tests had run before).
        public var peakResidentBytes: Int {
            guard poll() != nil else { return 0 }
            return lock.withLock { watchedPeak }
        }

        private var watchedPeak = 0

        /// Reads its `VmHWM` every few milliseconds until it ends, for ``peakResidentBytes``.
        /// Call right after starting it (`posix_spawn` returns once the program runs).
        public func watchPeakMemory() {
            let path = "/proc/\(pid)/status"
            let thread = Thread { [self] in
                while true {
                    // Gone, or a zombie whose memory is released: the last reading stands.
                    guard let status = Self.procFile(path), let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                        let kiB = Int(line.dropFirst("VmHWM:".count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
                    else { return }
                    lock.withLock { watchedPeak = max(watchedPeak, kiB * 1024) }
                    usleep(2_000)
                }
            }
            thread.name = "peak-memory"
            thread.start()
        }

        /// A `/proc` file's text (Foundation reads their size as 0, so reads nothing).
        private static func procFile(_ path: String) -> String? {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            var bytes = [UInt8](repeating: 0, count: 8192)
            let count = read(descriptor, &bytes, bytes.count)
            guard count > 0 else { return nil }
            return String(decoding: bytes[..<count], as: UTF8.self)
        }

        /// Sends `signal` to its PID, unless it has been reaped already.
        public func kill(_ signal: Int32 = SIGKILL) {
            lock.lock()
            defer { lock.unlock() }
            if ended == nil { _ = Glibc.kill(pid, signal) }
        }

        /// Waits until it ends; true when it did within `timeout` seconds.
        @discardableResult
        public func wait(timeout: Double) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while isRunning {
                if Date() > deadline { return false }
                usleep(5_000)
            }
            return true
        }

        /// ``wait(timeout:)`` for async code: it sleeps with `Task.sleep`, so a long wait never
        /// holds one of the few threads other tests need.
        @discardableResult
        public func wait(timeout: Double) async -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while isRunning {
                if Date() > deadline { return false }
                try? await Task.sleep(for: .milliseconds(5))
            }
            return true
        }

        /// Waits until it ends, however long that takes.
        public func waitUntilExit() { while isRunning { usleep(5_000) } }

        /// Standard output so far.
        public var standardOutput: String { String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self) }

        /// Standard error so far.
        public var standardError: String { String(decoding: (try? Data(contentsOf: error)) ?? Data(), as: UTF8.self) }

        /// Kills it when it outlived `timeout` seconds (failing the test), waits for it, reads
        /// what it printed and removes the temporary files.
        public func finish(timeout: Double = 120, sourceLocation: SourceLocation = #_sourceLocation) -> Result {
            if !wait(timeout: timeout) { timedOut(timeout, sourceLocation) }
            return collect()
        }

        /// ``finish(timeout:sourceLocation:)`` for async code.
        public func finish(timeout: Double = 120, sourceLocation: SourceLocation = #_sourceLocation) async -> Result {
            if !(await wait(timeout: timeout)) { timedOut(timeout, sourceLocation) }
            return collect()
        }

        /// Closes the pipe to its standard input, if any, and removes the files made for it (not
        /// the files it was given).
        public func remove() {
            try? input?.close()
            for file in temporary { try? FileManager.default.removeItem(at: file) }
        }

        private func timedOut(_ timeout: Double, _ sourceLocation: SourceLocation) {
            kill(SIGKILL)
            Issue.record("\(command.joined(separator: " ")) did not end within \(timeout) s", sourceLocation: sourceLocation)
        }

        private func collect() -> Result {
            waitUntilExit()
            defer { remove() }
            let ended = poll() ?? (-1, 0)
            return Result(
                status: ended.status, signal: ended.signal, output: (try? Data(contentsOf: output)) ?? Data(),
                standardError: standardError)
        }
    }

    /// Starts a program and returns at once; the caller waits for it (``Running/finish(timeout:sourceLocation:)``
    /// also reads and removes its files) or kills it by its PID.
    /// - Parameters:
    ///   - environment: the whole environment; nil inherits the test's.
    ///   - folder: the working folder; nil keeps the test's.
    ///   - input: what the program reads on its standard input, never a terminal.
    ///   - output: the file standard output goes to (made or emptied, and kept); nil for a
    ///     temporary one.
    ///   - error: the file standard error goes to; the same as `output` for one log of both;
    ///     nil for a temporary one.
    public static func start(
        _ program: String, _ arguments: [String], environment: [String: String]? = nil, in folder: URL? = nil,
        input: Input = .null, output: URL? = nil, error: URL? = nil
    ) throws -> Running {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("command-\(UUID().uuidString)")
        var descriptors: [Int32] = []
        defer { descriptors.forEach { close($0) } }
        func opened(_ descriptor: Int32, _ what: String) throws -> Int32 {
            guard descriptor >= 0 else { throw PeerError("\(what) cannot be opened: \(String(cString: strerror(errno)))") }
            descriptors.append(descriptor)
            return descriptor
        }
        // The input first: when it cannot be opened, no output file has been made yet.
        var writer: FileHandle?
        let inputDescriptor: Int32
        switch input {
        case .null:
            inputDescriptor = try opened(open("/dev/null", O_RDONLY | O_CLOEXEC), "/dev/null")
        case .data(let data):
            // Unlinked once open here: the descriptor the child inherits keeps it readable.
            let inputFile = base.appendingPathExtension("in")
            try data.write(to: inputFile)
            defer { try? FileManager.default.removeItem(at: inputFile) }
            inputDescriptor = try opened(open(inputFile.path, O_RDONLY | O_CLOEXEC), inputFile.path)
        case .file(let path):
            inputDescriptor = try opened(open(path, O_RDONLY | O_CLOEXEC), path)
        case .pipe:
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { throw PeerError("pipe: \(String(cString: strerror(errno)))") }
            // Both ends close on exec: only this child gets the reading end, as its descriptor 0.
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            inputDescriptor = try opened(ends[0], "pipe")
            writer = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
        }
        var temporary: [URL] = []
        let outputFile = output ?? base.appendingPathExtension("out")
        let errorFile = error ?? base.appendingPathExtension("err")
        if output == nil { temporary.append(outputFile) }
        if error == nil { temporary.append(errorFile) }
        let flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC
        do {
            let outputDescriptor = try opened(open(outputFile.path, flags, 0o600), outputFile.path)
            let errorDescriptor =
                errorFile == outputFile ? outputDescriptor : try opened(open(errorFile.path, flags, 0o600), errorFile.path)
            let pid = try Spawn.start(
                program, arguments, environment: environment ?? ProcessInfo.processInfo.environment, directory: folder?.path,
                input: inputDescriptor, output: outputDescriptor, error: errorDescriptor)
            return Running(
                pid: pid, command: [program] + arguments, output: outputFile, error: errorFile, input: writer, temporary: temporary)
        } catch {
            try? writer?.close()
            for file in temporary { try? FileManager.default.removeItem(at: file) }
            throw error
        }
    }

    /// Runs a program to its end; after `timeout` seconds it is killed by its PID and the test
    /// fails.
    /// - Parameters:
    ///   - environment: the whole environment; nil inherits the test's.
    ///   - folder: the working folder; nil keeps the test's.
    ///   - input: what the program reads on its standard input.
    public static func run(
        _ program: String, _ arguments: [String], environment: [String: String]? = nil, in folder: URL? = nil,
        input: Input = .null, timeout: Double = 120, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Result {
        try start(program, arguments, environment: environment, in: folder, input: input)
            .finish(timeout: timeout, sourceLocation: sourceLocation)
    }

    /// ``run(_:_:environment:in:input:timeout:sourceLocation:)`` for async code: it waits with
    /// `Task.sleep`, so a long run never holds one of the few threads other tests need.
    public static func run(
        _ program: String, _ arguments: [String], environment: [String: String]? = nil, in folder: URL? = nil,
        input: Input = .null, timeout: Double = 120, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Result {
        try await start(program, arguments, environment: environment, in: folder, input: input)
            .finish(timeout: timeout, sourceLocation: sourceLocation)
    }

    /// Runs `tool`, found on `PATH`, with the test's environment plus `environment`, and returns
    /// its standard output.
    /// - Throws: ``PeerError`` naming the tool, its exit status and its standard error when it
    ///   does not exit 0.
    @discardableResult
    public static func output(
        _ tool: String, _ arguments: [String], environment: [String: String] = [:], input: Input = .null, timeout: Double = 120
    ) throws -> String {
        let result = try run(
            "/usr/bin/env", [tool] + arguments,
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, input: input, timeout: timeout)
        guard result.status == 0 else {
            throw PeerError("\(tool) \(arguments.joined(separator: " ")) exited \(result.status): \(result.standardError)")
        }
        return result.standardOutput
    }

    /// A PID no process has any more: a `/bin/true` that ran and was reaped. The tests of stale
    /// temporary files name one as their writer. (PIDs are reused only after the kernel's
    /// `pid_max` wraps, far beyond one test.)
    public static func deadPID() throws -> pid_t {
        let finished = try start("/bin/true", [])
        finished.waitUntilExit()
        finished.remove()
        return finished.pid
    }

    /// The first executable named `name` on `PATH` (then /usr/bin, /bin), or nil.
    public static func find(_ name: String) -> String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return (folders + ["/usr/bin", "/bin"]).map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
