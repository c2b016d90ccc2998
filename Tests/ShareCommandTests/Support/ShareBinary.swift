import Foundation
import Testing

/// Runs the built `share` executable the way a person's shell would, and collects what it
/// printed and how it exited.
enum ShareBinary {
    /// What one run printed and returned.
    struct Run: CustomStringConvertible {
        var status: Int32
        var standardOutput: String
        var standardError: String

        var description: String {
            "exit \(status)\n--- stdout\n\(standardOutput)--- stderr\n\(standardError)"
        }
    }

    /// Where standard input comes from.
    enum Input {
        /// `/dev/null`: not a terminal, and empty.
        case null
        /// A file holding these bytes.
        case bytes([UInt8])
        /// A file holding this text.
        case text(String)
        /// An existing file, such as `/dev/zero`.
        case file(String)
    }

    /// The `share` built next to the test bundle (SwiftPM puts products and the test bundle in
    /// one directory), or `SHARE_BINARY` when set.
    static let url: URL? = {
        if let path = ProcessInfo.processInfo.environment["SHARE_BINARY"] { return URL(fileURLWithPath: path) }
        var folders: [URL] = []
        if let executable = Bundle.main.executableURL { folders.append(executable.deletingLastPathComponent()) }
        folders.append(Bundle.main.bundleURL)
        folders.append(Bundle.main.bundleURL.deletingLastPathComponent())
        if let first = CommandLine.arguments.first {
            folders.append(URL(fileURLWithPath: first).deletingLastPathComponent())
        }
        // Inside an .xctest bundle on macOS, the products sit three levels up.
        folders += folders.map { $0.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent() }
        return folders.map { $0.appendingPathComponent("share") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// `script` from util-linux, which runs a command on a new pseudo-terminal.
    static let script = ["/usr/bin/script", "/bin/script"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs `share` on a pseudo-terminal (through `script`), so standard input, output and
    /// error are all a terminal. What it printed comes back as standard output, with the
    /// terminal's "\r\n" turned into "\n".
    static func runOnTerminal(
        _ arguments: [String], in folder: URL, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Run {
        let script = try #require(script, "script (util-linux) is needed to run share on a terminal")
        let binary = try #require(url, "the share executable was not found next to the test bundle")
        let command = ([binary.path] + arguments).map(shellQuoted).joined(separator: " ")
        var run = try await self.run(["-qec", command, "/dev/null"], in: folder, program: script)
        run.standardOutput = run.standardOutput.replacingOccurrences(of: "\r\n", with: "\n")
        return run
    }

    static func shellQuoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// A fresh folder for one test, removed by the caller with `cleanUp`.
    static func makeFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("share-cli-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The environment every run gets: fixed width, no color, XDG folders inside `folder`.
    static func environment(in folder: URL) -> [String: String] {
        let home = folder.appendingPathComponent("home").path
        var environment = [
            "COLUMNS": "80", "NO_COLOR": "1", "LANG": "C.UTF-8", "HOME": home, "TERM": "dumb",
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
        ]
        for (key, name) in [
            ("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"), ("XDG_CACHE_HOME", "cache"),
            ("XDG_STATE_HOME", "state"), ("XDG_RUNTIME_DIR", "runtime"),
        ] {
            environment[key] = home + "/" + name
        }
        // A desktop with no applications, so what Open In offers does not depend on the
        // machine; the MIME database stays the system's.
        let systemData = home + "/system-data"
        try? FileManager.default.createDirectory(atPath: systemData, withIntermediateDirectories: true)
        try? FileManager.default.createSymbolicLink(atPath: systemData + "/mime", withDestinationPath: "/usr/share/mime")
        environment["XDG_DATA_DIRS"] = systemData
        return environment
    }

    /// Runs `share` with `arguments` in `folder`.
    /// - Parameters:
    ///   - program: runs this program with `arguments` instead of `share`.
    ///   - prefix: a program and its arguments that run `share` (for example `setpriv …`).
    ///   - timeout: how long the run may take before it is killed and the test fails; the
    ///     command never waits for a person without a terminal, so this only catches a hang.
    ///   - environment: variables added to (or replacing) the usual ones.
    static func run(
        _ arguments: [String], in folder: URL, input: Input = .null, prefix: [String] = [], program: String? = nil,
        timeout: Double = 60, environment extraEnvironment: [String: String] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Run {
        let binary = try #require(url, "the share executable was not found next to the test bundle")
        let process = Process()
        if let program {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments
        } else if prefix.isEmpty {
            process.executableURL = binary
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: prefix[0])
            process.arguments = Array(prefix.dropFirst()) + [binary.path] + arguments
        }
        process.currentDirectoryURL = folder
        process.environment = environment(in: folder).merging(extraEnvironment) { $1 }

        let runID = UUID().uuidString
        let outputURL = folder.appendingPathComponent(".stdout-\(runID)")
        let errorURL = folder.appendingPathComponent(".stderr-\(runID)")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outputURL)
            try? FileManager.default.removeItem(at: errorURL)
        }
        switch input {
        case .null:
            process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        case .bytes(let bytes):
            let inputURL = folder.appendingPathComponent(".stdin-\(runID)")
            try Data(bytes).write(to: inputURL)
            process.standardInput = try FileHandle(forReadingFrom: inputURL)
        case .text(let text):
            let inputURL = folder.appendingPathComponent(".stdin-\(runID)")
            try Data(text.utf8).write(to: inputURL)
            process.standardInput = try FileHandle(forReadingFrom: inputURL)
        case .file(let path):
            process.standardInput = FileHandle(forReadingAtPath: path)
        }
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)

        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline {
                process.terminate()
                Issue.record("share \(arguments) did not end within \(timeout) s", sourceLocation: sourceLocation)
                break
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus,
            standardOutput: String(decoding: try Data(contentsOf: outputURL), as: UTF8.self),
            standardError: String(decoding: try Data(contentsOf: errorURL), as: UTF8.self))
    }
}
