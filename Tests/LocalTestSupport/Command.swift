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

/// Runs programs (the built `share`, `ip`, openssl, python) and collects what they printed, with
/// output and errors going to temporary files so a chatty program never blocks on a full pipe.
/// Used by the Mail and Nearby tests and by ``SMTPPeer``, ``NetworkPair`` and ``PythonEmail``.
public enum Command {
    /// How a program ended and what it printed.
    public struct Result: CustomStringConvertible, Sendable {
        /// The exit status (or the signal number, as Foundation's `Process` reports it).
        public var status: Int32
        public var standardOutput: String
        public var standardError: String
        public var description: String { "exit \(status)\n--- stdout\n\(standardOutput)\n--- stderr\n\(standardError)" }

        /// A result read some other way (a run that was also measured, say).
        public init(status: Int32, standardOutput: String, standardError: String) {
            self.status = status
            self.standardOutput = standardOutput
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
    }

    /// Starts a program with standard input from `input`; the caller waits for it (or kills it by
    /// its PID) and removes the two files.
    /// - Parameters:
    ///   - environment: the whole environment; nil inherits the test's.
    ///   - folder: the working folder; nil keeps the test's.
    ///   - input: what the program reads on its standard input, a file rather than a terminal.
    /// - Returns: the running process and the files its standard output and standard error go to.
    public static func start(
        _ program: String, _ arguments: [String], environment: [String: String]? = nil, in folder: URL? = nil,
        input: Input = .null
    ) throws -> (process: Process, output: URL, error: URL) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let folder { process.currentDirectoryURL = folder }
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("command-\(UUID().uuidString)")
        // The input first: when it cannot be opened, no output file has been made yet.
        switch input {
        case .null:
            process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        case .data(let data):
            // Unlinked once open here: the descriptor the child inherits keeps it readable.
            let inputFile = base.appendingPathExtension("in")
            try data.write(to: inputFile)
            defer { try? FileManager.default.removeItem(at: inputFile) }
            process.standardInput = try FileHandle(forReadingFrom: inputFile)
        case .file(let path):
            guard let handle = FileHandle(forReadingAtPath: path) else { throw PeerError("\(path) cannot be read") }
            process.standardInput = handle
        }
        let output = base.appendingPathExtension("out")
        let errorFile = base.appendingPathExtension("err")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        do {
            process.standardOutput = try FileHandle(forWritingTo: output)
            process.standardError = try FileHandle(forWritingTo: errorFile)
            try process.run()
        } catch {
            try? FileManager.default.removeItem(at: output)
            try? FileManager.default.removeItem(at: errorFile)
            throw error
        }
        return (process, output, errorFile)
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
        let (process, output, error) = try start(program, arguments, environment: environment, in: folder, input: input)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() <= deadline { usleep(10_000) }
        return collect(process, output, error, timedOut: process.isRunning, timeout: timeout, sourceLocation: sourceLocation)
    }

    /// ``run(_:_:environment:in:input:timeout:sourceLocation:)`` for async code: it waits with
    /// `Task.sleep`, so a long run never holds one of the few threads other tests need.
    public static func run(
        _ program: String, _ arguments: [String], environment: [String: String]? = nil, in folder: URL? = nil,
        input: Input = .null, timeout: Double = 120, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Result {
        let (process, output, error) = try start(program, arguments, environment: environment, in: folder, input: input)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() <= deadline { try? await Task.sleep(for: .milliseconds(10)) }
        return collect(process, output, error, timedOut: process.isRunning, timeout: timeout, sourceLocation: sourceLocation)
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
        let finished = Process()
        finished.executableURL = URL(fileURLWithPath: "/bin/true")
        try finished.run()
        finished.waitUntilExit()
        return finished.processIdentifier
    }

    /// The first executable named `name` on `PATH` (then /usr/bin, /bin), or nil.
    public static func find(_ name: String) -> String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return (folders + ["/usr/bin", "/bin"]).map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Kills a run that outlived its time (failing the test), reaps it, reads its two files and
    /// removes them.
    private static func collect(
        _ process: Process, _ output: URL, _ error: URL, timedOut: Bool, timeout: Double, sourceLocation: SourceLocation
    ) -> Result {
        defer {
            try? FileManager.default.removeItem(at: output)
            try? FileManager.default.removeItem(at: error)
        }
        if timedOut {
            kill(process.processIdentifier, SIGKILL)
            let command = ([process.executableURL?.path ?? "?"] + (process.arguments ?? [])).joined(separator: " ")
            Issue.record("\(command) did not end within \(timeout) s", sourceLocation: sourceLocation)
        }
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            standardOutput: String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self),
            standardError: String(decoding: (try? Data(contentsOf: error)) ?? Data(), as: UTF8.self))
    }
}
