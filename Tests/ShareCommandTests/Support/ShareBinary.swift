import Foundation
import LocalTestSupport
import Testing

/// Runs the built `share` executable the way a person's shell would, and collects what it
/// printed and how it exited.
enum ShareBinary {
    /// What one run printed and returned.
    typealias Run = Command.Result

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

    /// `script` from util-linux, which runs a command on a new pseudo-terminal.
    static let script = ["/usr/bin/script", "/bin/script"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs `share` on a pseudo-terminal (through `script`), so standard input, output and
    /// error are all a terminal. What it printed comes back as standard output, with the
    /// terminal's "\r\n" turned into "\n".
    static func runOnTerminal(
        _ arguments: [String], in folder: URL, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Run {
        let script = try #require(script, "script (util-linux) is needed to run share on a terminal")
        let binary = try #require(Share.url, "the share executable was not found next to the test bundle")
        let command = ([binary.path] + arguments).map(shellQuoted).joined(separator: " ")
        var run = try await self.run(["-qec", command, "/dev/null"], in: folder, program: script)
        run.standardOutput = run.standardOutput.replacingOccurrences(of: "\r\n", with: "\n")
        return run
    }

    static func shellQuoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The environment every run gets: fixed width, no color, XDG folders inside `folder`.
    static func environment(in folder: URL) -> [String: String] {
        let home = folder.appendingPathComponent("home").path
        var environment = TemporaryHome.environment(home: URL(fileURLWithPath: home))
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
        let binary = try #require(Share.url, "the share executable was not found next to the test bundle")
        let command: [String]
        if let program {
            command = [program] + arguments
        } else {
            command = prefix + [binary.path] + arguments
        }
        let standardInput: Command.Input
        switch input {
        case .null: standardInput = .null
        case .bytes(let bytes): standardInput = .data(Data(bytes))
        case .text(let text): standardInput = .data(Data(text.utf8))
        case .file(let path): standardInput = .file(path)
        }
        return try await Command.run(
            command[0], Array(command.dropFirst()), environment: environment(in: folder).merging(extraEnvironment) { $1 },
            in: folder, input: standardInput, timeout: timeout, sourceLocation: sourceLocation)
    }
}
