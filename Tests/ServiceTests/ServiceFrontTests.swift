import Foundation
import LocalTestSupport
import Testing

/// The front D-Bus activation starts (`sharesheet-service`): it answers, hands over to
/// `share --service`, and ends; without a `share` to hand over to, every call it answered still
/// gets an answer, with the reason.
@Suite("The share service's front")
struct ServiceFrontTests {
    @Test("after a cold Share the name is share's, and the front has ended")
    func frontHandsOverAndEnds() async throws {
        let home = try TemporaryHome(prefix: "service-front")
        defer { home.remove() }
        let bus = try ServiceBus.start(home: home)
        defer { bus.stop() }
        let client = ServiceClient(bus: bus)
        let result = try await client.share(["--text", "handed over", "--activity", "copy", "--interactive", "false"])
        #expect(result["response"] as? Int == 0, "\(result)")
        let pid = try await bus.servicePID()
        #expect(ServiceBus.program(of: pid) == "share")
        var fronts: [pid_t] = []
        for _ in 0..<100 {
            fronts = bus.processIDs.filter { ServiceBus.program(of: $0) == "sharesheet-service" }
            if fronts.isEmpty { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(fronts.isEmpty, "the front is still running: \(fronts)\n\(bus.logTail())")
    }

    @Test("a front with no share beside it answers Share with Response 2 and ListActivities with an error, both saying why, then ends")
    func frontWithoutShare() async throws {
        let home = try TemporaryHome(prefix: "service-front")
        defer { home.remove() }
        // A copy of the front in a folder of its own: no share beside it, none in ../bin.
        let folder = home.root.appendingPathComponent("alone/libexec", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let front = folder.appendingPathComponent("sharesheet-service")
        try FileManager.default.copyItem(at: try Share.sibling("sharesheet-service"), to: front)
        let bus = try ServiceBus.start(home: home, service: [front.path])
        defer { bus.stop() }
        let client = ServiceClient(bus: bus)

        let result = try await client.share(["--text", "nowhere", "--activity", "copy", "--interactive", "false"])
        #expect(result["response"] as? Int == 2, "\(result)")
        let results = result["results"] as? [String: Any] ?? [:]
        #expect(results["completed"] as? Bool == false)
        #expect(results["error-code"] as? String == "temporary-failure")
        #expect((results["error-message"] as? String)?.hasPrefix("cannot find the share program beside \(front.path)") == true, "\(results)")

        let listed = try await client.run(["list", "--text", "nowhere"])
        #expect(listed.errorName == "org.freedesktop.DBus.Error.Failed", "\(listed)")
        #expect(listed.errorMessage?.contains("cannot find the share program beside") == true, "\(listed)")

        var owner: pid_t? = 0
        for _ in 0..<100 {
            owner = try await bus.ownerPID()
            if owner == nil { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(owner == nil, "the front still owns the name")
        #expect(bus.logText.contains("sharesheet-service: cannot find the share program"), "\(bus.logTail())")
    }
}

/// The service's idle exit (`SHARESHEET_SERVICE_IDLE_SECONDS`): never while a request is open,
/// soon after the last call otherwise.
@Suite("The share service's idle exit")
struct ServiceIdleTests {
    @Test("the service ends by itself once idle, but not while a request outlasts the idle time")
    func idleExit() async throws {
        let home = try TemporaryHome(prefix: "service-idle")
        defer { home.remove() }
        let bus = try ServiceBus.start(home: home, environment: ["SHARESHEET_SERVICE_IDLE_SECONDS": "1"])
        defer { bus.stop() }
        let client = ServiceClient(bus: bus)

        // A photo that takes about 3 s to arrive: the request stays open past the idle time.
        let started = try client.start([
            "share", "--slow-pipe", "300000:100000", "--activity", "photos", "--interactive", "false", "--announce",
        ])
        let pid = try await bus.servicePID()
        try await Task.sleep(for: .milliseconds(2000))
        #expect(DesktopSession.isRunning(pid), "the service left while a request was open")
        let output = try await client.finish(started)
        #expect(output.objects.last?["response"] as? Int == 0, "\(output)\n\(bus.logTail())")

        // Idle from now on: gone within a few seconds, and the name is free again.
        var running = true
        for _ in 0..<100 where running {
            try await Task.sleep(for: .milliseconds(50))
            running = DesktopSession.isRunning(pid)
        }
        #expect(!running, "the service was still running 5 s after its last request ended")
        #expect(try await bus.ownerPID() == nil)
    }
}
