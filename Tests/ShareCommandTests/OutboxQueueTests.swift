import Foundation
import LocalTestSupport
import ShareSheet
import ShareSheetSystem
import Testing

/// `share outbox` over the share queue: a queued AirDrop, post or share-target share is listed
/// with why it waits and how long ago, shown, and removed, like a mail.
@Suite("share outbox, the share queue")
final class OutboxQueueTests {
    let fixture: CommandFolder
    var folder: URL { fixture.url }
    var queue: ShareQueue { ShareQueue(folder: folder.appendingPathComponent("home/data/sharesheet/Queue")) }

    init() throws {
        fixture = try CommandFolder(["a b;c.png": CommandFolder.pngSignature])
    }

    private func share(_ arguments: [String]) async throws -> ShareBinary.Run {
        try await ShareBinary.run(arguments, in: folder)
    }

    private func queueAirDrop() throws -> String {
        let share = QueuedShare(
            kind: .airDrop, activity: "com.apple.UIKit.activity.AirDrop", target: "F00D", targetTitle: "Ana's Pixel",
            reason: "Ana's Pixel was not nearby.", waitsFor: .device(fingerprint: "F00D", alias: "Ana's Pixel"), items: [])
        return try queue.add(share, sources: [.file(folder.appendingPathComponent("a b;c.png"))]).share.id
    }

    @Test("list names the device, the file, why it waits and its age; --json carries the same")
    func list() async throws {
        let id = try queueAirDrop()
        let listed = try await share(["outbox", "list"])
        #expect(listed.status == 0, "\(listed)")
        #expect(listed.standardOutput.contains("\(id)  airdrop  queued  Ana's Pixel  a b;c.png"), "\(listed)")
        #expect(listed.standardOutput.contains("(Ana's Pixel was not nearby; just now)"), "\(listed)")
        let json = try await share(["outbox", "list", "--json"])
        let values = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        #expect(values.count == 1)
        #expect(values[0]["kind"] as? String == "airdrop")
        #expect(values[0]["reason"] as? String == "Ana's Pixel was not nearby.")
        #expect(values[0]["mayArriveTwice"] as? Bool == false)
        #expect(values[0]["lastError"] is NSNull)
    }

    @Test("show prints the stored file's path; remove deletes the entry and its copy")
    func showAndRemove() async throws {
        let id = try queueAirDrop()
        let shown = try await share(["outbox", "show", id])
        #expect(shown.status == 0, "\(shown)")
        let fileLine = try #require(shown.standardOutput.split(separator: "\n").first { $0.hasPrefix("File: ") })
        let stored = String(fileLine.dropFirst("File: ".count))
        #expect(FileManager.default.contents(atPath: stored) == CommandFolder.pngSignature)
        let removed = try await share(["outbox", "remove", id])
        #expect(removed.status == 0, "\(removed)")
        #expect(!FileManager.default.fileExists(atPath: stored))
        #expect(queue.entries().isEmpty)
        let again = try await share(["outbox", "remove", id])
        #expect(again.status != 0)
        #expect(again.standardError.contains(id), "\(again)")
    }

    @Test("an interrupted share is listed as one that may have arrived; retry says it may arrive twice")
    func interrupted() async throws {
        let id = try queueAirDrop()
        do {
            let claim = try queue.claim(id)
            #expect(claim != nil)
        }  // the claim ends here, as when its sender is killed
        let listed = try await share(["outbox", "list"])
        #expect(listed.standardOutput.contains("\(id)  airdrop  interrupted"), "\(listed)")
        #expect(listed.standardOutput.contains("it may have arrived"), "\(listed)")
        let retried = try await share(["outbox", "retry", id])
        #expect(retried.standardError.contains("it may arrive twice"), "\(retried)")
        let json = try await share(["outbox", "list", "--json"])
        let values = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        #expect(values.first?["mayArriveTwice"] as? Bool == true, "\(json)")
    }
}
