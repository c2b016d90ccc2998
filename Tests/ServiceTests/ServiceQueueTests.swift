// The service sends queued shares by itself (SPEC §14): a share to a D-Bus share target whose
// service was down goes as soon as the target takes its bus name, with no flush and well before
// the periodic retry. The AirDrop case (a device heard in discovery) is in NearbyTests.
import Foundation
import LocalTestSupport
import Testing

@Suite("The service sends the share queue by itself", .serialized)
struct ServiceQueueTests {
    static let recorder = Fixture.url("misbehaving-target.py")

    @Test("a share queued for a share target that was not running goes once when the target takes its name")
    func targetTakesItsName() async throws {
        let home = try TemporaryHome(prefix: "service-queue")
        defer { home.remove() }
        let applications = home.home.appendingPathComponent("data/applications")
        let system = home.root.appendingPathComponent("system")
        for folder in [applications, system] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        try """
        [Desktop Entry]
        Type=Application
        Name=Archive
        Exec=/bin/false
        X-ShareSheet-Accepts=public.image;text/plain
        X-ShareSheet-DBus=org.example.Later

        """.write(to: applications.appendingPathComponent("org.example.Later.desktop"), atomically: true, encoding: .utf8)
        let bus = try ServiceBus.start(home: home, environment: ["XDG_DATA_DIRS": system.path + ":/usr/share"])
        defer { bus.stop() }

        let queued = try await Share.run(["--activity", "org.example.Later", "--text", "for the archive"], home: home, extra: bus.environment)
        #expect(queued.status == 75, "\(queued.standardError)")

        // The service, started directly on the private bus; its periodic retry is far off.
        let service = try Share.start(
            ["--service"], home: home,
            extra: bus.environment.merging(["SHARESHEET_SERVICE_IDLE_SECONDS": "600", "SHARESHEET_QUEUE_RETRY_SECONDS": "600"]) { $1 })
        defer {
            kill(service.pid, SIGKILL)
            _ = Spawn.waitBlocking(service.pid)
        }
        try await Task.sleep(for: .seconds(2))
        let record = home.root.appendingPathComponent("record.json")
        #expect(!FileManager.default.fileExists(atPath: record.path), "nothing to send to yet")

        let target = try Command.start(
            "/usr/bin/python3", [Self.recorder.path, "record", "org.example.Later"],
            environment: ProcessInfo.processInfo.environment.merging(bus.environment) { $1 }.merging(["TARGET_RECORD": record.path]) { $1 })
        defer {
            target.kill(SIGKILL)
            target.waitUntilExit()
            target.remove()
        }
        let started = Date()
        while !FileManager.default.fileExists(atPath: record.path), Date().timeIntervalSince(started) < 30 {
            try await Task.sleep(for: .milliseconds(50))
        }
        let errors = (try? String(contentsOf: service.error, encoding: .utf8)) ?? ""
        #expect(Date().timeIntervalSince(started) < 10, "the target got the share only after \(Date().timeIntervalSince(started)) s: \(errors)")
        let received = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: record)) as? [String: Any], "\(errors)")
        let items = try #require(received["items"] as? [[String: Any]])
        #expect(items.count == 1, "\(received)")
        let listed = try await Share.run(["outbox", "list", "--json"], home: home, extra: bus.environment)
        #expect(listed.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "[]", "\(listed.standardOutput)")
        // Once: no second call reaches the target while the service keeps running.
        try FileManager.default.removeItem(at: record)
        try await Task.sleep(for: .seconds(2))
        #expect(!FileManager.default.fileExists(atPath: record.path))
        #expect(!errors.contains("ThreadSanitizer"), "\(errors)")
    }
}
