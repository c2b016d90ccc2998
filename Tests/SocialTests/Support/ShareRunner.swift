import Foundation
import LocalTestSupport
import Testing

/// One run of the built `share` binary: its exit status and what it wrote.
struct ShareRun {
    var status: Int32
    var output: String
    var error: String
}

/// Runs the built `share` binary, as a user does, in a sandbox's home.
enum ShareRunner {
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
        let binary = try #require(Share.url, "the share executable was not found next to the test bundle")
        let run = try Command.run(
            binary.path, arguments, environment: environment(sandbox, extra: extra), in: sandbox.home, input: .data(Data(input.utf8)),
            timeout: 300)
        return ShareRun(status: run.status, output: run.standardOutput, error: run.standardError)
    }
}
