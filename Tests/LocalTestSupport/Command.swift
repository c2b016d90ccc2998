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
    }

    /// Starts a program with standard input from /dev/null; the caller waits for it (or kills it
    /// by its PID) and removes the two files.
    /// - Parameters:
    ///   - environment: the whole environment; nil inherits the test's.
    ///   - folder: the working folder; nil keeps the test's.
    /// - Returns: the running process and the files its standard output and standard error go to.
    public static func start(
        _ program: String, _ arguments: [String], environment: [String: String]? = nil, in folder: URL? = nil
    ) throws -> (process: Process, output: URL, error: URL) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let folder { process.currentDirectoryURL = folder }
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("command-\(UUID().uuidString)")
        let output = base.appendingPathExtension("out")
        let errorFile = base.appendingPathExtension("err")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
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
    public static func run(
        _ program: String, _ arguments: [String], environment: [String: String]? = nil, in folder: URL? = nil,
        timeout: Double = 120
    ) throws -> Result {
        let (process, output, error) = try start(program, arguments, environment: environment, in: folder)
        defer {
            try? FileManager.default.removeItem(at: output)
            try? FileManager.default.removeItem(at: error)
        }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline {
                kill(process.processIdentifier, SIGKILL)
                Issue.record("\(program) \(arguments) did not end within \(timeout) s")
                break
            }
            usleep(10_000)
        }
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            standardOutput: String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self),
            standardError: String(decoding: (try? Data(contentsOf: error)) ?? Data(), as: UTF8.self))
    }
}
