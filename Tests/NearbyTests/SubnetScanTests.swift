import Foundation
import LocalTestSupport
import Testing

/// The legacy discovery: `register` to every address of the subnet, only when asked for.
@Suite("The legacy subnet scan runs only when asked for", .serialized)
struct SubnetScanTests {
    @Test("without multicast a device is found by the scan, and not without it")
    func scanFindsWhatMulticastCannot() throws {
        let folder = try TemporaryFolder.make("nearby-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let pair = try NetworkPair()
        defer { pair.remove() }
        // Their side has no multicast route: localsendd neither hears nor announces by multicast.
        try NetworkPair.ip(["-n", pair.theirs, "route", "del", "224.0.0.0/4", "dev", "veth0"])
        let daemon = try LocalSendPeer(namespace: pair.theirs, home: folder.appendingPathComponent("peer"))
        defer { daemon.stop() }
        let home = folder.appendingPathComponent("us")
        let config = home.appendingPathComponent("config/sharesheet")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "[nearby]\ndiscovery-timeout=4\n".write(to: config.appendingPathComponent("config"), atomically: true, encoding: .utf8)

        // Not found without the scan: the text waits in the queue for the device (75).
        let withoutScan = try ShareTool.run(
            ["--activity", "airdrop", "--to", daemon.alias, "--text", "one"], namespace: pair.ours, home: home)
        #expect(withoutScan.status == 75, "\(withoutScan)")
        #expect(withoutScan.standardError.contains("\(daemon.alias) is not nearby; the text will go when it is."), "\(withoutScan)")
        let queued = try ShareTool.run(["outbox", "list"], namespace: pair.ours, home: home)
        #expect(queued.standardOutput.contains("airdrop  queued  \(daemon.alias)  a text"), "\(queued)")
        #expect(daemon.receivedFiles().isEmpty)

        let withScan = try ShareTool.run(
            ["--activity", "airdrop", "--to", daemon.alias, "--set", "scan=subnet", "--text", "two"], namespace: pair.ours, home: home)
        #expect(withScan.status == 0, "\(withScan)\n\(daemon.process.output)")
        let files = daemon.receivedFiles()
        #expect(files.count == 1)
        if let name = files.first {
            #expect(try String(contentsOf: daemon.downloads.appendingPathComponent(name), encoding: .utf8) == "two")
        }
    }
}
