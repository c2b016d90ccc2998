import Foundation
import Testing

/// One run of the built `share` binary: its exit status and what it wrote.
struct ShareRun {
    var status: Int32
    var output: String
    var error: String
}

/// Runs the built `share` binary, as a user does, in a sandbox's home.
enum ShareRunner {
    static let binary: URL? = {
        if let path = ProcessInfo.processInfo.environment["SHARE_BINARY"] { return URL(fileURLWithPath: path) }
        var folders: [URL] = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        if let first = CommandLine.arguments.first { folders.append(URL(fileURLWithPath: first).deletingLastPathComponent()) }
        return folders.map { $0.appendingPathComponent("share") }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// The sandbox's environment for `share`, with `NO_COLOR`, `COLUMNS=80` and `extra`.
    static func environment(_ sandbox: Sandbox, extra: [String: String] = [:]) -> [String: String] {
        var environment = sandbox.environment
        environment["NO_COLOR"] = "1"
        environment["COLUMNS"] = "80"
        for (key, value) in extra { environment[key] = value }
        return environment
    }

    /// Runs `share ARGUMENTS` with `input` as its standard input (a file, not a terminal).
    static func share(
        _ arguments: [String], sandbox: Sandbox, input: String = "", extra: [String: String] = [:]
    ) throws -> ShareRun {
        let binary = try #require(binary, "the share executable was not found next to the test bundle")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = sandbox.home
        process.environment = environment(sandbox, extra: extra)
        let id = UUID().uuidString
        let inputURL = sandbox.home.appendingPathComponent(".in-\(id)")
        let outputURL = sandbox.home.appendingPathComponent(".out-\(id)")
        let errorURL = sandbox.home.appendingPathComponent(".err-\(id)")
        try Data(input.utf8).write(to: inputURL)
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        defer {
            for url in [inputURL, outputURL, errorURL] { try? FileManager.default.removeItem(at: url) }
        }
        process.standardInput = try FileHandle(forReadingFrom: inputURL)
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
        process.waitUntilExit()
        return ShareRun(
            status: process.terminationStatus, output: try String(contentsOf: outputURL, encoding: .utf8),
            error: try String(contentsOf: errorURL, encoding: .utf8))
    }
}
