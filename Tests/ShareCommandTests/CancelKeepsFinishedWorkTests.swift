import Foundation
import LocalTestSupport
import Testing

/// Ctrl-C during a two-file AirDrop where one file has arrived: the command cancels as every
/// front end does (SPEC §11), says what was kept and where, and reports it in the result.
@Suite("Ctrl-C keeps finished work", .serialized)
struct CancelKeepsFinishedWorkTests {
    @Test("Ctrl-C after the first of two files arrived: kept 1 of 2, said on standard error and in --json")
    func interruptKeepsTheFileThatArrived() async throws {
        let home = try TemporaryHome(prefix: "cancel-keeps")
        defer { home.remove() }
        let pair = try NetworkPair()
        defer { pair.remove() }
        let receiver = try LocalSendPeer(namespace: pair.theirs, home: home.root.appendingPathComponent("peer"))
        defer { receiver.stop() }
        let files = try TwoFileTransfer(in: home.root.appendingPathComponent("items"), limiting: pair)
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
