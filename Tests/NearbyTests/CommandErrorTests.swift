import Foundation
import LocalTestSupport
import Testing

/// What `share` says when a typed address or the making of the device identity goes wrong (#15):
/// the built binary, run in a temporary home.
@Suite("AirDrop and share receive: a bad port, openssl that cannot start")
struct CommandErrorTests {
    private static func run(_ arguments: [String], home: URL, environment extra: [String: String] = [:]) throws -> Command.Result {
        let binary = try #require(Share.url, "the share executable was not found next to the test bundle").path
        let environment = TemporaryHome.environment(home: home).merging(["SHARESHEET_NEARBY": "off"].merging(extra) { $1 }) { $1 }
        return try Command.run(binary, arguments, environment: environment, in: home, timeout: 60)
    }

    @Test(
        "--to HOST:PORT with a port out of range or not a number is a usage error naming the value",
        arguments: ["127.0.0.1:99999", "desk.example:http", "[::1]:0", "localhost:65536", "192.168.1.7:"])
    func badPort(target: String) throws {
        let home = try TemporaryFolder.make("nearby-tests")
        defer { try? FileManager.default.removeItem(at: home) }
        let file = home.appendingPathComponent("note.txt")
        try Data("hello".utf8).write(to: file)
        let started = Date()
        let result = try Self.run(["--activity", "airdrop", "--to", target, file.path], home: home)
        #expect(result.status == 64, "\(result)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result)")
        #expect(result.standardError.contains(target), "\(result)")
        #expect(result.standardError.contains("port"), "\(result)")
        #expect(Date().timeIntervalSince(started) < 5, "refused before any network is tried")
    }

    @Test("openssl that Process cannot start (a descriptor above RLIMIT_NOFILE): the real reason, not 'missing'")
    func opensslCannotStart() throws {
        let home = try TemporaryFolder.make("nearby-tests")
        defer { try? FileManager.default.removeItem(at: home) }
        let binary = try #require(Share.url).path
        // The shell keeps descriptor 200 open and lowers the soft limit under it, as a parent
        // that raised its own limit would leave things; share inherits both.
        let script = "exec 200</dev/null; ulimit -Sn 64; exec \"$0\" receive --once --port 0 --folder \"$1\""
        let result = try Command.run(
            "/bin/bash", ["-c", script, binary, home.appendingPathComponent("in").path],
            environment: TemporaryHome.environment(home: home), in: home, timeout: 60)
        #expect(result.status == 74, "\(result)")
        #expect(result.standardError.contains("cannot start"), "\(result)")
        #expect(result.standardError.contains("openssl"), "\(result)")
        #expect(result.standardError.contains("above the open-file limit 64"), "\(result)")
        #expect(!result.standardError.contains("missing"), "\(result)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result)")
    }

    @Test("openssl not in PATH: says the command is missing")
    func opensslMissing() throws {
        let home = try TemporaryFolder.make("nearby-tests")
        defer { try? FileManager.default.removeItem(at: home) }
        let result = try Self.run(
            ["receive", "--once", "--port", "0", "--folder", home.appendingPathComponent("in").path], home: home,
            environment: ["PATH": home.appendingPathComponent("empty-bin").path])
        #expect(result.status == 69, "\(result)")
        #expect(result.standardError.contains("the openssl command is missing"), "\(result)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result)")
    }
}
