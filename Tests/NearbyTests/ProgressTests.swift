// Progress on long work (#14): an AirDrop send and `share receive` show bytes, rate and time left
// on a terminal (a pseudo-terminal made by script(1)), and nothing of it through a pipe.
import Foundation
import LocalTestSupport
import Testing

@Suite("AirDrop and share receive: progress lines on a terminal only", .serialized)
struct ProgressTests {
    /// `words` quoted for `sh -c`.
    private static func shellLine(_ words: [String]) -> String {
        words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
    }

    /// `share arguments` in `namespace` under script(1): what it drew on its pseudo-terminal.
    private static func onTerminal(_ arguments: [String], namespace: String, home: URL) throws -> Command.Result {
        let binary = try #require(Share.url, "the share executable was not found next to the test bundle").path
        let environment = TemporaryHome.environment(home: home).merging(["TERM": "xterm-256color", "NO_COLOR": "1"]) { $1 }
        let inner = ["/usr/sbin/ip", "netns", "exec", namespace, "/usr/bin/env", "-i"]
            + environment.map { "\($0.key)=\($0.value)" } + [binary] + arguments
        return try Command.run("/usr/bin/script", ["-qec", shellLine(inner), "/dev/null"])
    }

    private static let bytesLine = #"\[[#-]{20}\] +[0-9]+%  [0-9.]+ [kM]?B of 210 MB"#
    private static let rateLine = #"[0-9.]+ [kM]?B/s  [0-9]+( min [0-9]+)? s left"#

    @Test("a 200 MB AirDrop send to localsendd draws bytes, rate and time left under a pseudo-terminal; through a pipe none, and --verbose says the steps")
    func airDropSend() throws {
        let folder = try TemporaryFolder.make("nearby-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let pair = try NetworkPair()
        defer { pair.remove() }
        // About 4 s a send: the rate is shown once it has been measured over half a second.
        try pair.limitRate(megabitsPerSecond: 400)
        let daemon = try LocalSendPeer(namespace: pair.theirs, home: folder.appendingPathComponent("peer"))
        defer { daemon.stop() }
        let file = folder.appendingPathComponent("film.bin")
        try writeRandomFile(file, size: 210_000_000, seed: 11)
        let home = folder.appendingPathComponent("us")

        let terminal = try Self.onTerminal(["--activity", "airdrop", "--to", daemon.fingerprint, file.path], namespace: pair.ours, home: home)
        #expect(terminal.status == 0, "\(terminal)")
        let drawn = terminal.standardOutput
        #expect(drawn.range(of: "AirDrop +" + Self.bytesLine, options: .regularExpression) != nil, "\(drawn)")
        #expect(drawn.range(of: Self.rateLine, options: .regularExpression) != nil, "\(drawn)")
        #expect(daemon.receivedFiles() == ["film.bin"], "\(daemon.process.output)")

        let piped = try ShareTool.run(
            ["--activity", "airdrop", "--to", daemon.fingerprint, "--verbose", file.path], namespace: pair.ours, home: home,
            extraEnvironment: ["TERM": "xterm-256color"])
        #expect(piped.status == 0, "\(piped)")
        #expect(!piped.standardError.contains(" MB of ") && !piped.standardError.contains("\u{1B}["), "\(piped.standardError)")
        let peer = "'\(daemon.alias)' at https://\(pair.theirAddress):"
        #expect(piped.standardError.contains("share: item \(file.path): "), "\(piped.standardError)")
        #expect(piped.standardError.contains("share: AirDrop: sending 1 item(s) to \(peer)"), "\(piped.standardError)")
        #expect(piped.standardError.contains("share: AirDrop: sent 1 file(s) to \(peer)"), "\(piped.standardError)")
        #expect(daemon.receivedFiles().count == 2)
    }

    @Test("share receive draws each incoming file's bytes under a pseudo-terminal, and nothing when its output is a file")
    func receive() throws {
        let folder = try TemporaryFolder.make("nearby-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let pair = try NetworkPair()
        defer { pair.remove() }
        let receiverHome = folder.appendingPathComponent("receiver")
        let config = receiverHome.appendingPathComponent("config/sharesheet")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "[nearby]\nalias=Desk\n".write(to: config.appendingPathComponent("config"), atomically: true, encoding: .utf8)
        let file = folder.appendingPathComponent("film.bin")
        try writeRandomFile(file, size: 210_000_000, seed: 12)
        let senderHome = folder.appendingPathComponent("sender")
        let binary = try #require(Share.url, "the share executable was not found next to the test bundle").path
        let receive = [binary, "receive", "--once", "--accept-all", "--verbose"]

        // On a terminal: script(1) inside their namespace, its screen in the log.
        let environment = TemporaryHome.environment(home: receiverHome).merging(["TERM": "xterm-256color", "NO_COLOR": "1"]) { $1 }
        let onTerminal = try NamespacedProcess(
            namespace: pair.theirs, command: ["/usr/bin/script", "-qfec", Self.shellLine(receive), "/dev/null"],
            environment: environment, log: folder.appendingPathComponent("terminal.log"))
        defer { onTerminal.stop() }
        #expect(onTerminal.waitForOutput(containing: "receiving as"), "\(onTerminal.output)")
        let sent = try ShareTool.run(["--activity", "airdrop", "--to", "Desk", file.path], namespace: pair.ours, home: senderHome)
        #expect(sent.status == 0, "\(sent)")
        #expect(onTerminal.waitForOutput(containing: "received everything from"), "\(onTerminal.output)")
        let drawn = onTerminal.output
        #expect(drawn.range(of: "film.bin +" + Self.bytesLine, options: .regularExpression) != nil, "\(drawn)")
        #expect(drawn.contains("share: receive: film.bin (210000000 bytes) from "), "\(drawn)")
        #expect(drawn.contains("share: receive: saved film.bin as "), "\(drawn)")
        onTerminal.stop()

        // Into a file: the same lines but no progress and no terminal controls.
        let logged = try ShareTool.start(
            Array(receive.dropFirst()), namespace: pair.theirs, home: receiverHome, log: folder.appendingPathComponent("file.log"))
        defer { logged.stop() }
        #expect(logged.waitForOutput(containing: "receiving as"), "\(logged.output)")
        let again = try ShareTool.run(["--activity", "airdrop", "--to", "Desk", file.path], namespace: pair.ours, home: senderHome)
        #expect(again.status == 0, "\(again)")
        #expect(logged.waitForOutput(containing: "received everything from"), "\(logged.output)")
        #expect(!logged.output.contains(" MB of ") && !logged.output.contains("\u{1B}["), "\(logged.output)")
        #expect(logged.output.contains("share: receive: saved film.bin as "), "\(logged.output)")
    }
}
