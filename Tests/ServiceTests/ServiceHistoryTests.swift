// The share service records the shares it carries out in the person's history (SPEC §12), as
// the command records its own: `share --via-service` leaves one entry, made by the service.
import Foundation
import LocalTestSupport
import Testing

@Suite("The share service records its shares in the history", .serialized)
struct ServiceHistoryTests {
    static let sunset = Sample.url("sunset.png")

    @Test("--via-service --activity photos FILE: one entry, an image saved, made by the service and not again by the command")
    func serviceRecordsOnce() async throws {
        let home = try TemporaryHome(prefix: "service-history")
        defer { home.remove() }
        let bus = try ServiceBus.start(home: home)
        defer { bus.stop() }
        let run = try await Share.run(
            ["--via-service", "--activity", "photos", Self.sunset.path], home: home, extra: bus.environment)
        #expect(run.status == 0, "\(run.standardError)\nservice: \(bus.logTail())")
        #expect(try await bus.ownerPID() != nil, "the service ran it")

        let listed = try await Share.run(["history", "--json"], home: home)
        #expect(listed.status == 0, "\(listed.standardError)")
        let entries = try #require(try JSONSerialization.jsonObject(with: listed.output) as? [[String: Any]], "\(listed.standardOutput)")
        #expect(entries.count == 1, "recorded once, by the service, not again by the command: \(listed.standardOutput)")
        #expect(entries.first?["activity"] as? String == "photos")
        #expect(entries.first?["disposition"] as? String == "saved")
        let items = entries.first?["items"] as? [[String: Any]]
        #expect(items?.first?["kind"] as? String == "image" && items?.first?["count"] as? Int == 1)
        #expect(!listed.standardOutput.contains("sunset"), "no file name in the history")
    }
}
