// D-Bus share targets as an application meets them: activated on a private session bus from
// their .service files, called by `share` with files as descriptors, and what the sheet does
// when one crashes, never answers or refuses.
import Foundation
import LocalTestSupport
import Testing

@Suite("Share targets over D-Bus", .serialized)
struct BusTargetTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let example = repository.appendingPathComponent("Examples/targets")
    static let misbehaving = Fixture.url("misbehaving-target.py")
    static let python = "/usr/bin/python3"

    /// A test home whose XDG folders are its own (`XDG_DATA_DIRS` too), with a private bus that
    /// starts the example target and three misbehaving ones, each installed as a share target.
    private func withTargets(
        service: Bool = false, _ body: (TemporaryHome, ServiceBus, [String: String]) async throws -> Void
    ) async throws {
        let home = try TemporaryHome(prefix: "bus-targets")
        defer { home.remove() }
        let applications = home.home.appendingPathComponent("data/applications")
        let system = home.root.appendingPathComponent("system")
        let received = home.root.appendingPathComponent("received")
        for folder in [applications, system, received] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        let exampleEntry = try String(contentsOf: Self.example.appendingPathComponent("org.sharesheet.ExampleTarget.desktop"), encoding: .utf8)
            .replacingOccurrences(of: "@EXAMPLEDIR@", with: Self.example.path)
        try exampleEntry.write(to: applications.appendingPathComponent("org.sharesheet.ExampleTarget.desktop"), atomically: true, encoding: .utf8)
        var activatable = ["org.sharesheet.ExampleTarget": [Self.python, Self.example.appendingPathComponent("example-target.py").path]]
        for mode in ["crash", "silent", "refuse", "record", "malformed"] {
            let name = "org.example.\(mode.capitalized)"
            activatable[name] = [Self.python, Self.misbehaving.path, mode, name]
            try """
            [Desktop Entry]
            Type=Application
            Name=\(mode.capitalized) target
            Exec=/bin/false
            X-ShareSheet-Accepts=public.image;text/plain
            X-ShareSheet-DBus=\(name)

            """.write(to: applications.appendingPathComponent("\(name).desktop"), atomically: true, encoding: .utf8)
        }
        let extra = [
            // shared-mime-info is in /usr/share; this machine has no share target there.
            "XDG_DATA_DIRS": system.path + ":/usr/share", "SHARESHEET_EXAMPLE_TARGET_DIR": received.path,
            "TARGET_RECORD": home.root.appendingPathComponent("record.json").path,
        ]
        let bus = try ServiceBus.start(home: home, environment: extra, activatable: activatable)
        defer { bus.stop() }
        try await body(home, bus, bus.environment)
        let running = bus.processIDs
        bus.stop()
        #expect(running.filter(DesktopSession.isRunning).isEmpty, "still running after stop: \(running)")
    }

    private func json(_ run: Share.Run) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: run.output) as? [String: Any], "\(run.standardOutput)\n\(run.standardError)")
    }

    @Test("the example target, activated on the bus, receives a PNG as a descriptor, and its result is the outcome")
    func exampleTargetSavesAPhoto() async throws {
        try await withTargets { home, bus, environment in
            let photo = try home.file("sunset.png", try Data(contentsOf: Sample.url("sunset.png")))
            let run = try await Share.run(["--json", "--activity", "org.sharesheet.ExampleTarget", photo.path], home: home, extra: environment)
            #expect(run.status == 0, "\(run.standardError)\n\(bus.logTail())")
            let result = try json(run)
            let saved = home.root.appendingPathComponent("received/sunset.png")
            #expect(result["activityType"] as? String == "org.sharesheet.target.org.sharesheet.ExampleTarget")
            #expect(result["activity"] as? String == "org.sharesheet.ExampleTarget")
            #expect(result["completed"] as? Bool == true)
            #expect(result["disposition"] as? String == "saved")
            #expect(result["location"] as? String == saved.path)
            #expect(try Data(contentsOf: saved) == (try Data(contentsOf: photo)))
        }
    }

    @Test("what a target receives: each file as a descriptor with its name and MIME type, text as text, the subject")
    func whatATargetReceives() async throws {
        try await withTargets { home, bus, environment in
            let name = "a b;c $(x) 'q' #1.png"
            let photo = try home.file(name, try Data(contentsOf: Sample.url("sunset.png")))
            let run = try await Share.run(
                ["--json", "--activity", "org.example.Record", "--subject", "Holiday", photo.path, "--text", "caption ✓"], home: home,
                extra: environment)
            #expect(run.status == 0, "\(run.standardError)\n\(bus.logTail())")
            let result = try json(run)
            #expect(result["disposition"] as? String == "sent")
            #expect(result["location"] as? String == "archive:42")
            let record = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: home.root.appendingPathComponent("record.json"))) as? [String: Any])
            let items = try #require(record["items"] as? [[String: Any]])
            #expect(items.count == 2)
            #expect(items.first?["name"] as? String == name)
            #expect(items.first?["mime-type"] as? String == "image/png")
            #expect(items.first?["bytes"] as? String == (try Data(contentsOf: photo)).base64EncodedString())
            #expect(items.last?["text"] as? String == "caption ✓")
            #expect((record["options"] as? [String: Any])?["subject"] as? String == "Holiday")
        }
    }

    @Test("a target that crashes, or refuses, fails the share at once with the reason")
    func crashingAndRefusingTargets() async throws {
        try await withTargets { home, _, environment in
            let photo = try home.file("p.png", try Data(contentsOf: Sample.url("sunset.png")))
            let started = Date()
            let crashed = try await Share.run(["--json", "--activity", "org.example.Crash", photo.path], home: home, extra: environment)
            #expect(Date().timeIntervalSince(started) < 20)
            #expect(crashed.status == 75, "\(crashed.standardError)")
            let failure = try json(crashed)["error"] as? [String: Any]
            #expect((failure?["message"] as? String)?.hasPrefix("Crash target: org.example.Crash failed: ") == true, "\(failure ?? [:])")
            #expect(try json(crashed)["disposition"] as? String == "failed")
            let refused = try await Share.run(["--json", "--activity", "org.example.Refuse", photo.path], home: home, extra: environment)
            #expect(refused.status == 69)
            #expect((try json(refused)["error"] as? [String: Any])?["message"] as? String == "Refuse target: the archive is full")
        }
    }

    @Test("a target whose result is malformed fails the share, naming the key and the type it should have")
    func malformedResult() async throws {
        try await withTargets { home, _, environment in
            let photo = try home.file("p.png", try Data(contentsOf: Sample.url("sunset.png")))
            let run = try await Share.run(["--json", "--activity", "org.example.Malformed", photo.path], home: home, extra: environment)
            #expect(run.status == 75, "\(run.standardError)")
            #expect(
                (try json(run)["error"] as? [String: Any])?["message"] as? String
                    == "Malformed target: org.example.Malformed answered with a malformed result: results: completed must be of type b, not s")
        }
    }

    @Test("a target that never answers fails within [targets] timeout=, with the reason and the key")
    func silentTargetTimesOut() async throws {
        try await withTargets { home, _, environment in
            try FileManager.default.createDirectory(at: home.configFile.deletingLastPathComponent(), withIntermediateDirectories: true)
            try "[targets]\ntimeout=2\n".write(to: home.configFile, atomically: true, encoding: .utf8)
            let started = Date()
            let run = try await Share.run(["--json", "--activity", "org.example.Silent", "--text", "hello"], home: home, extra: environment)
            let elapsed = Date().timeIntervalSince(started)
            #expect(elapsed >= 2 && elapsed < 15, "took \(elapsed) s")
            #expect(run.status == 75)
            let failure = try json(run)["error"] as? [String: Any]
            #expect(failure?["message"] as? String == "Silent target: org.example.Silent did not answer within 2 s")
            #expect(failure?["hint"] as? String == "[targets] timeout= gives it longer")
        }
    }

    @Test("through the share service: a crashing target fails its request, the service stays usable, and a removed entry leaves the next sheet")
    func serviceStaysUsable() async throws {
        try await withTargets { home, bus, _ in
            let client = ServiceClient(bus: bus)
            let photo = try home.file("p.png", try Data(contentsOf: Sample.url("sunset.png")))
            let listed = try await client.listActivities(["--file", photo.path + ":image/png"])
            let names = listed.compactMap { $0["activity"] as? String }
            #expect(names.contains("org.sharesheet.ExampleTarget") && names.contains("org.example.Crash"), "\(names)")
            // The window and every client draw a target with its entry's own icon and title.
            let example = listed.first { $0["activity"] as? String == "org.sharesheet.ExampleTarget" }
            #expect(example?["icon-name"] as? String == "document-send")
            #expect(example?["title"] as? String == "Example Target")
            #expect(example?["category"] as? String == "share")
            let servicePID = try await bus.ownerPID()
            let failed = try await client.share(["--file", photo.path + ":image/png", "--activity", "org.example.Crash", "--interactive", "false"])
            #expect(failed["response"] as? Int == 2, "\(failed)")
            let message = (failed["results"] as? [String: Any])?["error-message"] as? String
            #expect(message?.contains("org.example.Crash failed") == true, "\(failed)")
            let saved = try await client.share(["--file", photo.path + ":image/png", "--activity", "org.sharesheet.ExampleTarget", "--interactive", "false"])
            #expect(saved["response"] as? Int == 0, "\(saved)\n\(bus.logTail())")
            #expect(FileManager.default.fileExists(atPath: home.root.appendingPathComponent("received/p.png").path))

            try FileManager.default.removeItem(at: home.home.appendingPathComponent("data/applications/org.example.Crash.desktop"))
            var stillListed = true
            let deadline = Date().addingTimeInterval(10)
            while stillListed, Date() < deadline {
                try await Task.sleep(for: .milliseconds(200))
                stillListed = try await client.listActivities(["--file", photo.path + ":image/png"])
                    .contains { $0["activity"] as? String == "org.example.Crash" }
            }
            #expect(!stillListed, "the removed target is still on the service's sheets")
            #expect(try await bus.ownerPID() == servicePID, "the service was not restarted")
        }
    }
}
