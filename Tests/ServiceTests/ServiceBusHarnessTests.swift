// The harness the service tests stand on, checked against a stand-in service of our own
// (Tests/Fixtures/service-stand-in.py, which serves the real interface file): the bus activates
// it in the test home's environment, the client passes descriptors and gets Responses, and
// stop leaves nothing running.
import Foundation
import LocalTestSupport
import Testing

@Suite("ServiceBus harness", .serialized)
struct ServiceBusHarnessTests {
    static let standIn = Fixture.url("service-stand-in.py")

    @Test("nothing runs before the first call, which activates the service in the test home's environment")
    func firstCallActivates() async throws {
        try await withStandIn { home, bus, client in
            #expect(bus.processIDs == [bus.busPID, bus.watchdogPID].sorted())
            #expect(try await bus.ownerPID() == nil)
            let activities = try await client.listActivities(["--text", "hello"])
            #expect(activities.map { $0["activity"] as? String } == ["echo", "never"])
            #expect(activities.last?["reason"] as? String == "the stand-in offers nothing real")
            let pid = try #require(try await bus.ownerPID())
            #expect(getpgid(pid) == bus.busPID, "the service is in the bus's process group")
            #expect(bus.processIDs.contains(pid))
            let commandLine = try String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)
            #expect(commandLine.contains("service-stand-in.py"))
            let configHome = home.environment["XDG_CONFIG_HOME"]!
            #expect(
                bus.logText.contains("stand-in: started pid=\(pid) XDG_CONFIG_HOME=\(configHome) TMPDIR=\(bus.temporaryFolder.path)"),
                "log: \(bus.logText)")
            #expect(ServiceBus.peakResidentMemory(of: pid).map { $0 > 1 << 20 } == true)
        }
    }

    @Test("a descriptor's bytes reach the service, text beside it, and the Response comes back")
    func descriptorReachesTheService() async throws {
        try await withStandIn { home, _, client in
            let file = home.root.appendingPathComponent("sample.bin")
            try writeRandomFile(file, size: 3 << 20 + 17, seed: 7)
            let digest = try sha256(of: file)
            let result = try await client.share(["--text", "beside", "--file", file.path + ":application/octet-stream", "--token", "t1"])
            #expect(result["response"] as? Int == 0)
            #expect((result["handle"] as? String)?.hasSuffix("/t1") == true)
            let returned = (result["results"] as? [String: Any])?["returned-items"] as? [String]
            #expect(returned == ["text:beside", "fd:sample.bin:\(3 << 20 + 17):\(digest)"])
        }
    }

    @Test("stop ends the daemon and the service it activated, and leaves its socket gone")
    func stopLeavesNothing() async throws {
        let home = try TemporaryHome(prefix: "service-harness")
        defer { home.remove() }
        let bus = try ServiceBus.start(home: home, service: [ServiceClient.python, Self.standIn.path])
        _ = try await ServiceClient(bus: bus).result(["ping"])
        let pid = try #require(try await bus.ownerPID())
        let running = bus.processIDs
        #expect(Set(running).isSuperset(of: [bus.busPID, bus.watchdogPID, pid]))
        bus.stop()
        #expect(running.filter(DesktopSession.isRunning).isEmpty, "still running: \(running.filter(DesktopSession.isRunning))")
        #expect(bus.processIDs.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: bus.folder.appendingPathComponent("socket").path))
        bus.stop()
    }

    @Test("a daemon that cannot listen is reported with its own words")
    func daemonFailureIsExplained() throws {
        let home = try TemporaryHome(prefix: "service-harness")
        defer { home.remove() }
        // A folder where the socket goes: dbus-daemon cannot bind there.
        try FileManager.default.createDirectory(
            at: home.root.appendingPathComponent("bus/socket/in-the-way"), withIntermediateDirectories: true)
        let error = #expect(throws: PeerError.self) {
            try ServiceBus.start(home: home, service: [ServiceClient.python, Self.standIn.path])
        }
        let said = error?.description ?? ""
        #expect(said.contains("dbus-daemon did not start: it exited"), "\(said)")
        #expect(said.contains("Failed to bind socket"), "\(said)")
    }

    @Test("a service that fails to start: the client gets the bus's error and the failure shows its words")
    func activationFailureIsExplained() async throws {
        let home = try TemporaryHome(prefix: "service-harness")
        defer { home.remove() }
        let bus = try ServiceBus.start(home: home, service: ["/bin/sh", "-c", "echo 'stand-in refuses' >&2; exit 7"])
        defer { bus.stop() }
        let client = ServiceClient(bus: bus)
        let output = try await client.run(["list", "--text", "x"])
        #expect(output.status == 3)
        #expect(output.errorName == "org.freedesktop.DBus.Error.Spawn.ChildExited", "\(output)")
        #expect(bus.logTail().contains("stand-in refuses"))
        let error = await #expect(throws: ServiceClient.Failure.self) { try await client.listActivities([]) }
        #expect(error?.description.contains("stand-in refuses") == true)
    }

    @Test("only the caller may Close its request; its own Close gives Response 1")
    func closeIsTheCallersOnly() async throws {
        try await withStandIn { _, _, client in
            // The held-open pipe keeps the stand-in's request pending until the caller closes it.
            let caller = try client.start(["share", "--pipe-held-open", "--announce", "--close-after", "2", "--timeout", "20"])
            let pending = try await client.waitFor("pending", in: caller)
            let handle = try #require(pending["handle"] as? String)
            let other = try await client.run(["close", handle])
            #expect(other.status == 3)
            #expect(other.errorName == "org.freedesktop.DBus.Error.AccessDenied", "\(other)")
            let ended = try await client.finish(caller)
            let result = try #require(ended.objects.last, "\(ended)")
            #expect(result["close"] as? String == "ok")
            #expect(result["response"] as? Int == 1, "\(ended)")
        }
    }

    @Test("concurrent clients on their own connections each get their own Response")
    func concurrentClients() async throws {
        try await withStandIn { _, _, client in
            let output = try await client.run(["concurrent", "6", "--text", "text {i}", "--token", "c{i}"])
            #expect(output.status == 0, "\(output)")
            #expect(output.objects.count == 6)
            for (index, result) in output.objects.enumerated() {
                #expect(result["client"] as? Int == index)
                #expect((result["handle"] as? String)?.hasSuffix("/c\(index)") == true)
                #expect((result["results"] as? [String: Any])?["returned-items"] as? [String] == ["text:text \(index)"])
            }
            #expect(Set(output.objects.compactMap { $0["handle"] as? String }).count == 6)
        }
    }

    @Test("a client that disconnects mid-share leaves the bus, and the service sees it go")
    func disconnectingClient() async throws {
        try await withStandIn { _, bus, client in
            let output = try await client.run(["share", "--pipe-held-open", "--disconnect-after", "0.5"])
            #expect(output.status == 0)
            #expect(output.objects.last?["disconnected"] as? Bool == true, "\(output)")
            let deadline = Date().addingTimeInterval(10)
            while !bus.logText.contains("caller :"), Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
            #expect(bus.logText.contains(" left"), "log: \(bus.logText)")
        }
    }

    @Test("the bench command times ListActivities and Ping")
    func benchmarkCommand() async throws {
        try await withStandIn { _, _, client in
            let result = try await client.result(["bench-list", "20"])
            #expect(result["calls"] as? Int == 20)
            for key in ["list", "ping"] {
                let timing = result[key] as? [String: Any]
                #expect((timing?["median_us"] as? Double).map { $0 > 0 } == true)
                #expect((timing?["p99_us"] as? Double).map { $0 > 0 } == true)
            }
        }
    }

    private func withStandIn(
        _ body: (TemporaryHome, ServiceBus, ServiceClient) async throws -> Void
    ) async throws {
        let home = try TemporaryHome(prefix: "service-harness")
        defer { home.remove() }
        let bus = try ServiceBus.start(home: home, service: [ServiceClient.python, Self.standIn.path])
        defer { bus.stop() }
        try await body(home, bus, ServiceClient(bus: bus))
        let left = bus.processIDs
        bus.stop()
        #expect(left.filter(DesktopSession.isRunning).isEmpty, "still running after stop: \(left)")
    }
}

/// The SHA-256 of a file, streamed by sha256sum.
func sha256(of file: URL) throws -> String {
    let result = try Command.run("/usr/bin/sha256sum", [file.path])
    guard result.status == 0, let digest = result.standardOutput.split(separator: " ").first else {
        throw PeerError("sha256sum \(file.path) failed: \(result)")
    }
    return String(digest)
}
