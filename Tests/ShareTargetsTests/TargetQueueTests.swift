// A D-Bus share target whose service is not there: the share waits in the share queue and goes
// once the target runs (SPEC §14), with the bytes that were shared, once.
import Foundation
import LocalTestSupport
import Testing

@Suite("Share targets over D-Bus: queued while their service is down", .serialized)
struct TargetQueueTests {
    static let misbehaving = Fixture.url("misbehaving-target.py")

    /// A test home with two share targets on a private bus: `org.example.Later` ("Archive"),
    /// which nothing on the bus starts, and `org.example.Crash`, which the bus starts and which
    /// dies on `Share`.
    private func withBus(_ body: (TemporaryHome, ServiceBus) async throws -> Void) async throws {
        let home = try TemporaryHome(prefix: "target-queue")
        defer { home.remove() }
        let applications = home.home.appendingPathComponent("data/applications")
        let system = home.root.appendingPathComponent("system")
        for folder in [applications, system] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        for (name, title) in [("org.example.Later", "Archive"), ("org.example.Crash", "Crash target")] {
            try """
            [Desktop Entry]
            Type=Application
            Name=\(title)
            Exec=/bin/false
            X-ShareSheet-Accepts=public.image;text/plain
            X-ShareSheet-DBus=\(name)

            """.write(to: applications.appendingPathComponent("\(name).desktop"), atomically: true, encoding: .utf8)
        }
        let bus = try ServiceBus.start(
            home: home, environment: ["XDG_DATA_DIRS": system.path + ":/usr/share"],
            activatable: ["org.example.Crash": ["/usr/bin/python3", Self.misbehaving.path, "crash", "org.example.Crash"]])
        defer { bus.stop() }
        try await body(home, bus)
    }

    /// Whether `name` has an owner on the bus now (`NameHasOwner`, which starts nothing).
    private func hasOwner(_ name: String, _ bus: ServiceBus) throws -> Bool {
        let reply = try Command.output(
            "dbus-send",
            ["--bus=\(bus.address)", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
             "org.freedesktop.DBus.NameHasOwner", "string:\(name)"])
        return reply.contains("boolean true")
    }

    private func outbox(_ home: TemporaryHome, _ bus: ServiceBus) async throws -> [[String: Any]] {
        let run = try await Share.run(["outbox", "list", "--json"], home: home, extra: bus.environment)
        #expect(run.status == 0, "\(run.standardError)")
        return try #require(try JSONSerialization.jsonObject(with: run.output) as? [[String: Any]], "\(run.standardOutput)")
    }

    @Test("a target that is not running: exit 75 and queued; once it runs, outbox flush delivers the same bytes once")
    func queuedUntilTheTargetRuns() async throws {
        try await withBus { home, bus in
            let bytes = try Data(contentsOf: Sample.url("sunset.png"))
            let photo = try home.file("sunset.png", bytes)
            let run = try await Share.run(["--json", "--activity", "org.example.Later", photo.path], home: home, extra: bus.environment)
            #expect(run.status == 75, "\(run.standardError)")
            let result = try #require(try JSONSerialization.jsonObject(with: run.output) as? [String: Any], "\(run.standardOutput)")
            #expect(result["disposition"] as? String == "queued")
            #expect(result["completed"] as? Bool == true)
            #expect(run.standardError.contains("Archive is not running; the photo will go when it starts."), "\(run.standardError)")
            let queued = try await outbox(home, bus)
            #expect(queued.count == 1)
            #expect(queued.first?["kind"] as? String == "share-target")
            #expect(queued.first?["recipients"] as? [String] == ["Archive"])
            #expect(queued.first?["reason"] as? String == "Archive was not running.")
            // The queue keeps its own copy: the photo goes as it was shared.
            try FileManager.default.removeItem(at: photo)

            let record = home.root.appendingPathComponent("record.json")
            let target = try Command.start(
                "/usr/bin/python3", [Self.misbehaving.path, "record", "org.example.Later"],
                environment: ProcessInfo.processInfo.environment.merging(bus.environment) { $1 }
                    .merging(["TARGET_RECORD": record.path]) { $1 })
            defer {
                target.kill(SIGKILL)
                target.waitUntilExit()
                target.remove()
            }
            let deadline = Date().addingTimeInterval(20)
            while !(try hasOwner("org.example.Later", bus)), Date() < deadline { try await Task.sleep(for: .milliseconds(100)) }
            try #require(try hasOwner("org.example.Later", bus), "the target did not take its name")

            let flushed = try await Share.run(["outbox", "flush"], home: home, extra: bus.environment)
            #expect(flushed.status == 0, "\(flushed.standardError)")
            let id = try #require(queued.first?["id"] as? String)
            #expect(flushed.standardOutput == "sent \(id) to Archive\n")
            let received = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: record)) as? [String: Any])
            let items = try #require(received["items"] as? [[String: Any]])
            #expect(items.count == 1)
            #expect(items.first?["name"] as? String == "sunset.png")
            #expect(items.first?["mime-type"] as? String == "image/png")
            #expect(items.first?["bytes"] as? String == bytes.base64EncodedString())
            #expect(try await outbox(home, bus).isEmpty)

            // Once: a second flush has nothing to send, and the target gets no second call.
            try FileManager.default.removeItem(at: record)
            let again = try await Share.run(["outbox", "flush"], home: home, extra: bus.environment)
            #expect(again.status == 0 && again.standardOutput.isEmpty, "\(again.standardOutput)\(again.standardError)")
            #expect(!FileManager.default.fileExists(atPath: record.path))
        }
    }

    @Test("a target that was started and then failed the call is not queued: it had the items")
    func failedTargetIsNotQueued() async throws {
        try await withBus { home, bus in
            let photo = try home.file("p.png", try Data(contentsOf: Sample.url("sunset.png")))
            let run = try await Share.run(["--json", "--activity", "org.example.Crash", photo.path], home: home, extra: bus.environment)
            #expect(run.status == 75, "\(run.standardError)")
            let result = try #require(try JSONSerialization.jsonObject(with: run.output) as? [String: Any], "\(run.standardOutput)")
            #expect(result["disposition"] as? String == "failed")
            #expect(try await outbox(home, bus).isEmpty)
        }
    }
}
