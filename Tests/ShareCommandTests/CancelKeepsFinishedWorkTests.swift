import Foundation
import LocalTestSupport
import Testing

/// Ctrl-C during a two-file AirDrop where one file has arrived: the command cancels as every
/// front end does (SPEC §11), says what was kept and where, and reports it in the result.
@Suite("Ctrl-C keeps finished work", .serialized)
struct CancelKeepsFinishedWorkTests {
    /// A home, a link limited to 1 Mbit/s between two namespaces, a receiver on the far side and
    /// the two files; everything is stopped and removed afterwards.
    private func withTransfer(
        _ body: (TemporaryHome, NetworkPair, LocalSendPeer, TwoFileTransfer) async throws -> Void
    ) async throws {
        let home = try TemporaryHome(prefix: "cancel-keeps")
        defer { home.remove() }
        let pair = try NetworkPair()
        defer { pair.remove() }
        let receiver = try LocalSendPeer(namespace: pair.theirs, home: home.root.appendingPathComponent("peer"))
        defer { receiver.stop() }
        let files = try TwoFileTransfer(in: home.root.appendingPathComponent("items"), limiting: pair)
        try await body(home, pair, receiver, files)
    }

    @Test("Ctrl-C after the first of two files arrived: kept 1 of 2, said on standard error and in --json")
    func interruptKeepsTheFileThatArrived() async throws {
        try await withTransfer { home, pair, receiver, files in
            let started = try Share.start(
                ["--activity", "airdrop", "--to", pair.theirAddress, "--json", files.small.path, files.large.path], home: home,
                namespace: pair.ours)
            let arrived = await files.waitUntilTheSmallOneArrived(at: receiver)
            kill(started.pid, SIGINT)
            let run = try await Share.finish(started, timeout: 60)
            #expect(arrived, "the small file never arrived: \(receiver.process.output)")
            #expect(run.status == 130, "share: \(run.standardError)")
            #expect(run.standardError.contains("interrupted: kept small.txt (1 of 2) at Peer Laptop"), "\(run.standardError)")
            let result = try #require(
                try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any], "\(run.standardOutput)")
            let kept = result["kept"] as? [String: Any]
            #expect(kept?["what"] as? String == "small.txt (1 of 2)", "\(run.standardOutput)")
            #expect(kept?["location"] as? String == "Peer Laptop")
            #expect(result["activity"] as? String == "airdrop")
            #expect(files.onlyTheSmallOneArrived(at: receiver), "received: \(receiver.receivedFiles())")
        }
    }

    @Test("Ctrl-C in the terminal sheet after the first of two files arrived: kept 1 of 2, exit 130")
    func interruptInTheSheetKeepsTheFileThatArrived() async throws {
        try await withTransfer { home, pair, receiver, files in
            let binary = try #require(Share.url)
            let environment = TemporaryHome.environment(home: home.root.appendingPathComponent("us"))
                .merging(["TERM": "xterm-256color", "NO_COLOR": "1"]) { $1 }
            let assignments = environment.sorted { $0.key < $1.key }.map { ShareBinary.shellQuoted("\($0.key)=\($0.value)") }
            let command =
                "/usr/sbin/ip netns exec \(pair.ours) /usr/bin/env -i " + assignments.joined(separator: " ")
                + " \(ShareBinary.shellQuoted(binary.path)) --terminal --set to=\(pair.theirAddress) "
                + "\(ShareBinary.shellQuoted(files.small.path)) \(ShareBinary.shellQuoted(files.large.path)); echo \"EXIT=$?\"; sleep 60"
            let terminal = TmuxTerminal()
            defer { terminal.stop() }
            try terminal.start(command)
            #expect(try await terminal.waitFor("AirDrop"))
            try terminal.send(literally: "airdrop")
            try terminal.press("Enter")
            #expect(try await terminal.waitFor("More fields (PIN)? [y/N]:"))
            try terminal.type("")
            #expect(await files.waitUntilTheSmallOneArrived(at: receiver), "\(receiver.process.output)")
            try terminal.press("C-c")
            #expect(try await terminal.waitFor("EXIT=130"))
            let screen = try terminal.screen()
            #expect(screen.contains("interrupted: kept small.txt (1 of 2) at Peer Laptop"), "\(screen)")
            #expect(files.onlyTheSmallOneArrived(at: receiver), "received: \(receiver.receivedFiles())")
        }
    }
}
