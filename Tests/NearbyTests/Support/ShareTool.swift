import Foundation
import LocalTestSupport
import Testing

/// Our `share` binary, run inside a namespace as a person would run it.
enum ShareTool {
    /// Runs `share arguments` in `namespace` with a private HOME under `home`.
    static func run(
        _ arguments: [String], namespace: String, home: URL, extraEnvironment: [String: String] = [:]
    ) throws -> Command.Result {
        let binary = try #require(Share.url, "the share executable was not found next to the test bundle").path
        let environment = TemporaryHome.environment(home: home).merging(extraEnvironment) { $1 }
        return try Command.run(
            "/usr/sbin/ip",
            ["netns", "exec", namespace, "/usr/bin/env", "-i"] + environment.map { "\($0.key)=\($0.value)" } + [binary] + arguments)
    }

    /// Starts `share arguments` in `namespace` in the background, output to a log.
    static func start(_ arguments: [String], namespace: String, home: URL, log: URL) throws -> NamespacedProcess {
        let binary = try #require(Share.url, "the share executable was not found next to the test bundle").path
        return try NamespacedProcess(
            namespace: namespace, command: [binary] + arguments, environment: TemporaryHome.environment(home: home), log: log)
    }
}
