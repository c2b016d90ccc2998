import Foundation
import LocalTestSupport
import Testing

/// The kill matrix over the share queue (#28): `share` killed with SIGKILL while it copies a
/// share into the queue, and while it sends a queued share over a slow link. Afterwards every
/// share is queued whole or delivered once: no half entry is listed, no part of a file at the
/// receiver is kept as delivered, and a share that may have arrived is said to be one
/// (interrupted) instead of going again by itself; sent again by hand, it says it may arrive twice.
@Suite("kill matrix: the share queue holds whole shares or none, and sends each once", .serialized)
struct QueueKillMatrixTests {
    @Test("an AirDrop of 512 MB being queued (its device not there) killed at 10, 50 and 90 % of the copy")
    func killedWhileQueueing() async throws {
        let home = try TemporaryHome(prefix: "kill-queueing")
        defer { home.remove() }
        let size = 512 << 20
        let movie = home.root.appendingPathComponent("movie.mkv")
        try KillPoint.writeLargeFile(movie, header: [0x1A, 0x45, 0xDF, 0xA3], size: size)
        // Nothing listens there: the connection is refused and the share is queued.
        let port = try Loopback.freePort()
        let arguments = ["--activity", "airdrop", "--to", "127.0.0.1:\(port)", movie.path]
        // Discovery off: nothing is announced on the machine's own network.
        let quiet = ["SHARESHEET_NEARBY": "off"]
        let queue = home.dataHome.appendingPathComponent("sharesheet/Queue")
        var killed = 0
        for fraction in [0.1, 0.5, 0.9] {
            let outcome = try await KillPoint.run(arguments, home: home, extra: quiet) { pid, _ in
                (KillPoint.sizeOfFileOpen(by: pid, under: queue.appendingPathComponent("tmp")) ?? 0) >= Int64(Double(size) * fraction)
            }
            if outcome == .killed { killed += 1 }
            #expect(outcome == .killed, "at \(fraction)")
            // Nothing listed, or the whole share with the whole file.
            let listed = try await Self.outbox(home)
            for entry in listed {
                let id = try #require(entry["id"] as? String)
                let stored = queue.appendingPathComponent("new/\(id)/items/movie.mkv")
                #expect(filesAreIdentical(movie, stored), "at \(fraction): \(id) is listed with a part of the file")
                _ = try await Share.run(["outbox", "remove", id], home: home)
            }
        }
        #expect(killed > 0, "no kill landed while the file was copied")
        // The next share queued removes what the killed ones left in tmp/, and is listed alone.
        let small = home.root.appendingPathComponent("small.mkv")
        try KillPoint.writeLargeFile(small, header: [], size: 1 << 20)
        let next = try await Share.run(["--activity", "airdrop", "--to", "127.0.0.1:\(port)", small.path], home: home, extra: quiet)
        #expect(next.status == 75, "\(next.standardError)")
        #expect(KillPoint.entries(queue.appendingPathComponent("tmp")).isEmpty, "\(KillPoint.entries(queue.appendingPathComponent("tmp")))")
        let listed = try await Self.outbox(home)
        #expect(listed.count == 1 && listed.first?["preview"] as? String == "small.mkv", "\(listed)")
    }

    @Test(
        "a queued AirDrop of 60 MB killed mid-send on a slow link: interrupted, not sent again by flush, sent whole by retry",
        .enabled(if: getuid() == 0, "network namespaces need root"))
    func killedWhileSending() async throws {
        let pair = try NetworkPair()
        defer { pair.remove() }
        let sender = try TemporaryHome(prefix: "kill-queue-sender")
        defer { sender.remove() }
        let receiver = try TemporaryHome(prefix: "kill-queue-receiver")
        defer { receiver.remove() }
        // 80 Mbit/s: 60 MB take about six seconds, long enough to be killed in the middle.
        try pair.limitRate(megabitsPerSecond: 80)
        let size = 60 << 20
        let movie = sender.root.appendingPathComponent("movie.mkv")
        try writeRandomFile(movie, size: size, seed: 9)
        let downloads = receiver.home.appendingPathComponent("Downloads")
        let parts = { KillPoint.entries(downloads).filter { $0.hasSuffix(".sharesheet-part") } }
        let delivered = { KillPoint.entries(downloads).filter { !$0.hasPrefix(".") } }

        // The receiver is not up: the share is queued.
        let queued = try await Share.finish(
            Share.start(["--activity", "airdrop", "--to", pair.theirAddress, movie.path], home: sender, namespace: pair.ours))
        #expect(queued.status == 75, "\(queued.standardError)")
        let id = try #require(try await Self.outbox(sender).first?["id"] as? String)

        let started = try KillMatrixTests.startReceiver(receiver, in: pair)
        defer {
            kill(started.pid, SIGTERM)
            _ = Spawn.waitBlocking(started.pid)
        }
        let outcome = try await KillPoint.run(["outbox", "flush"], home: sender, namespace: pair.ours, timeout: 120) { _, _ in
            (parts().compactMap { KillPoint.size(of: downloads.appendingPathComponent($0)) }.max() ?? 0) >= Int64(size / 2)
        }
        #expect(outcome == .killed)
        // Listed as interrupted, said as one that may have arrived; nothing kept as delivered.
        let listed = try await Self.outbox(sender)
        #expect(listed.count == 1 && listed.first?["state"] as? String == "interrupted", "\(listed)")
        let words = try await Share.run(["outbox", "list"], home: sender)
        #expect(words.standardOutput.contains("interrupted mid-send: it may have arrived"), "\(words.standardOutput)")
        try await Task.sleep(for: .seconds(1))
        #expect(delivered().isEmpty, "\(delivered())")

        // A flush (what the service does too) never sends an interrupted share by itself.
        let flush = try await Share.finish(Share.start(["outbox", "flush"], home: sender, namespace: pair.ours))
        #expect(flush.status == 0 && flush.standardOutput.isEmpty, "\(flush.standardOutput)\(flush.standardError)")
        #expect(try await Self.outbox(sender).first?["state"] as? String == "interrupted")
        #expect(delivered().isEmpty, "\(delivered())")

        // Sent again by a person: said as one that may arrive twice, then whole, once.
        var retry = try await Share.finish(Share.start(["outbox", "retry", id], home: sender, namespace: pair.ours), timeout: 180)
        #expect(retry.standardError.contains("it may arrive twice"), "\(retry.standardError)")
        // The receiver may still hold the killed session for a moment (busy, 75): the share is queued again.
        let deadline = Date().addingTimeInterval(60)
        while retry.status == 75, Date() < deadline {
            try await Task.sleep(for: .seconds(1))
            retry = try await Share.finish(Share.start(["outbox", "retry", id], home: sender, namespace: pair.ours), timeout: 180)
        }
        #expect(retry.status == 0, "\(retry.standardError)")
        #expect(delivered() == ["movie.mkv"], "\(delivered())")
        #expect(filesAreIdentical(movie, downloads.appendingPathComponent("movie.mkv")))
        #expect(try await Self.outbox(sender).isEmpty)
    }

    /// `share outbox list --json`, decoded.
    static func outbox(_ home: TemporaryHome) async throws -> [[String: Any]] {
        let run = try await Share.run(["outbox", "list", "--json"], home: home)
        #expect(run.status == 0, "\(run.standardError)")
        return try #require(JSONSerialization.jsonObject(with: run.output) as? [[String: Any]], "\(run.standardOutput)")
    }
}
