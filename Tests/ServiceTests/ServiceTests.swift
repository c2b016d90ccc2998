// The share service (SPEC §8) as an application meets it: activated on a private session bus
// from its .service file, called by Python's Gio with file descriptors, checked by what the
// activities did in the test home (the pasteboard, Pictures, a loopback SMTP server).
import Foundation
import LocalTestSupport
import Testing

@Suite("Share service", .serialized)
struct ShareServiceTests {
    /// A 2×2 PNG.
    static let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEUlEQVR4nGP4zwAEIOI/EAAAHu8F+0huP94AAAAASUVORK5CYII=")!

    @Test("the first call activates share --service from the .service file; a PNG lists Save to Photos, and Reading List as unavailable with the command's reason")
    func activationAndListing() async throws {
        try await withService { home, bus, client in
            #expect(try await bus.ownerPID() == nil, "nothing owns the name before the first call")
            let image = try home.file("photo.png", Self.png)
            let activities = try await client.listActivities(["--file", image.path + ":image/png"])
            let pid = try #require(try await bus.ownerPID(), "the call activated the service")
            let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
            #expect(executable == Share.url?.resolvingSymlinksInPath().path)
            #expect(try String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8).split(separator: "\0").last == "--service")
            #expect(bus.logText.contains("Successfully activated service 'org.sharesheet.ShareSheet'"))

            let byName = Dictionary(activities.compactMap { entry in (entry["activity"] as? String).map { ($0, entry) } }) { first, _ in first }
            let photos = try #require(byName["photos"], "activities: \(activities)")
            #expect(photos["available"] as? Bool == true)
            #expect(photos["activity-type"] as? String == "com.apple.UIKit.activity.SaveToCameraRoll")
            #expect(photos["title"] as? String == "Save to Photos")
            let readingList = try #require(byName["reading-list"], "activities: \(activities)")
            #expect(readingList["available"] as? Bool == false)
            // The same reason as the command's for the same file: one share layer under both.
            let listed = try await Share.run(["--list", "--json", image.path], home: home)
            let command = try JSONSerialization.jsonObject(with: listed.output) as? [String: Any]
            let unavailable = command?["unavailable"] as? [[String: Any]] ?? []
            let reason = unavailable.first { $0["name"] as? String == "reading-list" }?["reason"] as? String
            #expect(reason != nil && readingList["reason"] as? String == reason, "service: \(readingList), command: \(listed.standardOutput)")
        }
    }

    @Test("Share of text with activity=copy, interactive=false: Response 0, copied, and share paste prints the text")
    func copyText() async throws {
        try await withService { home, _, client in
            let text = "Hello from the bus ✓ \(UUID().uuidString)"
            let result = try await client.share(["--text", text, "--activity", "copy", "--interactive", "false"])
            #expect(result["response"] as? Int == 0, "\(result)")
            let results = result["results"] as? [String: Any] ?? [:]
            #expect(results["disposition"] as? String == "copied")
            #expect(results["activity"] as? String == "copy")
            #expect(results["completed"] as? Bool == true)
            let pasted = try await Share.run(["paste"], home: home)
            #expect(pasted.status == 0, "\(pasted.standardError)")
            #expect(pasted.standardOutput == text)
        }
    }

    @Test("a 1 GB descriptor saved to Photos arrives byte-identical, and the service stays under 64 MiB")
    func largeDescriptorToPhotos() async throws {
        try await withService { home, bus, client in
            let source = home.root.appendingPathComponent("large.png")
            try writeRandomFile(source, size: 1 << 30, seed: 3)
            // A PNG signature and header first: Save to Photos goes by the content.
            let handle = try FileHandle(forWritingTo: source)
            try handle.write(contentsOf: Self.png.prefix(33))
            try handle.close()
            let expected = try sha256(of: source)
            var slow = client
            slow.timeout = 600
            let result = try await slow.share([
                "--file", source.path + ":image/png", "--activity", "photos", "--interactive", "false", "--timeout", "540",
            ])
            let pid = try #require(try await bus.ownerPID(), "the service is still there after the share")
            let peak = try #require(ServiceBus.peakResidentMemory(of: pid))
            #expect(result["response"] as? Int == 0, "\(result)")
            let results = result["results"] as? [String: Any] ?? [:]
            #expect(results["disposition"] as? String == "saved")
            let saved = try #require(results["location"] as? String, "\(results)")
            #expect(URL(fileURLWithPath: saved).deletingLastPathComponent().standardizedFileURL.path == home.pictures.standardizedFileURL.path)
            #expect(home.entries(home.pictures) == [URL(fileURLWithPath: saved).lastPathComponent])
            #expect(try sha256(of: URL(fileURLWithPath: saved)) == expected)
            #expect(peak < 64 << 20, "the service's peak resident memory (VmHWM) was \(peak >> 20) MiB")
            let left = try await filesLeft(under: bus.temporaryFolder)
            // The descriptor's copy goes when the request ends.
            #expect(left.isEmpty, "TMPDIR after the share: \(left)")
        }
    }

    @Test("Mail with to and subject preset by fields is delivered once to a loopback SMTP server")
    func mailWithPresets() async throws {
        try await withService { home, bus, client in
            let peer = try SMTPPeer(in: home.root)
            defer { peer.stop() }
            try FileManager.default.createDirectory(at: home.configFile.deletingLastPathComponent(), withIntermediateDirectories: true)
            try "[mail]\nsmtp=smtp://127.0.0.1:\(peer.port)\nstarttls=off\nfrom=ana@example.org\n"
                .write(to: home.configFile, atomically: true, encoding: .utf8)
            let result = try await client.share([
                "--text", "The body, sent over D-Bus.", "--activity", "mail", "--interactive", "false",
                "--field", "to=bob@example.org", "--field", "subject=Hello from the service",
            ])
            #expect(result["response"] as? Int == 0, "\(result)\n\(bus.logTail())")
            #expect((result["results"] as? [String: Any])?["disposition"] as? String == "sent", "\(result)")
            // Anything sent twice would have arrived by now.
            try await Task.sleep(for: .seconds(1))
            let received = peer.received
            try #require(received.count == 1, "messages received: \(received.count)")
            #expect(try peer.envelope(of: received[0]).recipients == ["bob@example.org"])
            let parsed = try PythonEmail.parse(received[0])
            #expect(parsed.subject == "Hello from the service")
            #expect(parsed.to == ["bob@example.org"])
            #expect(parsed.parts.contains { $0.text?.contains("The body, sent over D-Bus.") == true }, "\(parsed.parts)")
        }
    }

    @Test("a caller that leaves mid-share cancels the work: nothing in Pictures or TMPDIR, the pipe is closed, the service serves on")
    func callerLeavesMidShare() async throws {
        try await withService { home, bus, client in
            let log = home.root.appendingPathComponent("writer.log")
            // 48 MiB at 4 MiB/s, from a process that outlives the client: only cancelling stops it.
            let output = try await client.run([
                "share", "--slow-pipe", "\(48 << 20):\(4 << 20):slow.png:image/png", "--detach-writers", log.path,
                "--activity", "photos", "--interactive", "false", "--disconnect-after", "2",
            ])
            let leaving = try #require(output.objects.last, "\(output)")
            #expect(leaving["disconnected"] as? Bool == true, "the share ended before the caller left: \(output)")
            let writer = try #require((leaving["writer_pids"] as? [Int])?.first.map { pid_t($0) })
            let deadline = Date().addingTimeInterval(30)
            while DesktopSession.isRunning(writer), Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
            if DesktopSession.isRunning(writer) { kill(writer, SIGKILL) }
            let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            #expect(said.contains("Broken pipe"), "the service kept the pipe open or read it to its end: \(said)")
            // Time for a save that was not cancelled to land.
            try await Task.sleep(for: .seconds(1))
            #expect(home.entries(home.pictures).isEmpty, "Pictures: \(home.entries(home.pictures))")
            let left = try await filesLeft(under: bus.temporaryFolder)
            #expect(left.isEmpty, "TMPDIR: \(left)")
            #expect(try await client.listActivities(["--text", "still there?"]).isEmpty == false)
        }
    }

    @Test("one caller cannot Close another's request; the caller's own Close dismisses it with Response 1")
    func closeIsTheCallersOnly() async throws {
        try await withService { _, bus, client in
            // A pipe held open keeps the request at work until it is closed.
            let caller = try client.start([
                "share", "--pipe-held-open", "--activity", "photos", "--interactive", "false", "--announce",
                "--close-after", "3", "--timeout", "30",
            ])
            let pending = try await client.waitFor("pending", in: caller)
            let handle = try #require(pending["handle"] as? String)
            let other = try await client.run(["close", handle])
            #expect(other.status == 3, "another client's Close: \(other)")
            #expect(other.errorName != nil, "\(other)")
            let ended = try await client.finish(caller)
            let result = try #require(ended.objects.last, "\(ended)\n\(bus.logTail())")
            #expect(result["close"] as? String == "ok", "the caller's own Close: \(result)")
            #expect(result["response"] as? Int == 1, "\(result)")
            #expect((result["elapsed_ms"] as? Double ?? 0) > 2500, "the request ended before its caller closed it: \(result)")
        }
    }

    @Test("a file: URI is refused with Response 2 and a reason that points to descriptors")
    func fileURIRefused() async throws {
        try await withService { home, _, client in
            let file = try home.file("secret.txt", Data("secret".utf8))
            let result = try await client.share(["--uri", file.absoluteString, "--activity", "copy", "--interactive", "false"])
            #expect(result["response"] as? Int == 2, "\(result)")
            let message = (result["results"] as? [String: Any])?["error-message"] as? String ?? ""
            #expect(message.contains("descriptor"), "\(result)")
            let pasted = try await Share.run(["paste"], home: home)
            #expect(!pasted.standardOutput.contains("secret"))
        }
    }

    @Test(
        "malformed items and options get Response 2 with a reason, a wrongly typed call a D-Bus error, and the same service answers afterwards",
        arguments: [
            ["--item", "{'name': <'no content.txt'>}"],
            ["--item", "{'text': <42>}"],
            ["--item", "{'fd': <'zero'>}"],
            ["--item", "{'fd': <handle 7>}"],
            ["--item", "{'fd': <handle -1>}"],
            ["--item", "{'text': <'two kinds'>, 'uri': <'https://swift.org'>}"],
            ["--write-only", "WRITE-ONLY"],
            ["--text", "x", "--option-variant", "interactive='no'"],
            ["--text", "x", "--option-variant", "fields=<42>"],
            ["--text", "x", "--option-variant", "activity=42"],
        ])
    func malformedShare(_ items: [String]) async throws {
        try await withService { home, _, client in
            _ = try await client.result(["ping"])
            let before = try await ServiceBus.ownerPIDOrFail(client)
            let arguments = items.map { $0 == "WRITE-ONLY" ? home.root.appendingPathComponent("write-only.bin").path : $0 }
            let output = try await client.run(["share"] + arguments + ["--activity", "copy", "--interactive", "false", "--timeout", "20"])
            let result = try #require(output.objects.last, "\(output)")
            if let error = output.errorName {
                #expect(output.status == 3 && !(output.errorMessage ?? "").isEmpty, "\(error): \(output)")
            } else {
                #expect(result["response"] as? Int == 2, "\(output)")
                let message = (result["results"] as? [String: Any])?["error-message"] as? String ?? ""
                #expect(!message.isEmpty, "no reason: \(output)")
            }
            #expect(try await ServiceBus.ownerPIDOrFail(client) == before, "the service was restarted (it crashed?)")
            #expect(try await client.listActivities(["--text", "after"]).isEmpty == false)
        }
    }

    @Test("a handle_token that cannot name an object path is refused by the Share call itself")
    func invalidTokenIsADBusError() async throws {
        try await withService { _, bus, client in
            for token in ["a-b", "bad/token", ""] {
                let output = try await client.run([
                    "share", "--text", "x", "--activity", "copy", "--interactive", "false", "--option-variant",
                    "handle_token=<'\(token)'>",
                ])
                #expect(output.errorName == "org.freedesktop.DBus.Error.InvalidArgs", "token \(token): \(output)")
            }
            let listed = try await client.listActivities(["--text", "still here"])
            #expect(!listed.isEmpty, "the service stopped answering: \(bus.logTail())")
        }
    }

    @Test("a Share or ListActivities call with the wrong signature is a D-Bus error, and the service answers afterwards")
    func wronglyTypedCalls() async throws {
        try await withService { _, _, client in
            for call in [
                ["call", "Share", "('', [{'text': <'x'>}])"],
                ["call", "Share", "(42, [{'text': <'x'>}], @a{sv} {})"],
                ["call", "ListActivities", "([{'text': 'x'}], @a{sv} {})"],
                ["call", "ListActivities", "()"],
            ] {
                let output = try await client.run(call)
                #expect(output.status == 3, "\(output)")
                #expect(output.errorName == "org.freedesktop.DBus.Error.InvalidArgs", "\(output)")
            }
            let listed = try await client.run(["list", "--item", "{'fd': <handle 3>}"])
            #expect(listed.status == 3 || listed.objects.last?["activities"] != nil, "\(listed)")
            #expect(try await client.listActivities(["--text", "after"]).isEmpty == false)
        }
    }

    @Test("a caller whose pipe's writer stays open does not hold up other callers")
    func heldPipeDoesNotFreeze() async throws {
        try await withService { home, bus, client in
            let holder = try client.start([
                "share", "--pipe-held-open", "--activity", "photos", "--interactive", "false", "--announce",
                "--close-after", "8", "--timeout", "30",
            ])
            _ = try await client.waitFor("pending", in: holder)
            var quick = client
            quick.timeout = 10
            let started = Date()
            let activities = try await quick.listActivities(["--text", "meanwhile"])
            #expect(!activities.isEmpty)
            let copied = try await quick.share(["--text", "meanwhile", "--activity", "copy", "--interactive", "false"])
            #expect(copied["response"] as? Int == 0, "\(copied)")
            #expect(Date().timeIntervalSince(started) < 5, "other callers waited \(Date().timeIntervalSince(started)) s")
            let pasted = try await Share.run(["paste"], home: home)
            #expect(pasted.standardOutput == "meanwhile")
            let held = try await client.finish(holder)
            #expect(held.objects.last?["response"] as? Int == 1, "\(held)\n\(bus.logTail())")
            let left = try await filesLeft(under: bus.temporaryFolder)
            #expect(left.isEmpty, "TMPDIR after the held request was closed: \(left)")
            #expect(home.entries(home.pictures).isEmpty, "Pictures: \(home.entries(home.pictures))")
        }
    }

    @Test("20 concurrent clients each get their own Response on their own request")
    func twentyConcurrentClients() async throws {
        try await withService { home, bus, client in
            let output = try await client.run([
                "concurrent", "20", "--text", "text {i}", "--token", "c{i}", "--activity", "copy", "--interactive", "false",
            ])
            #expect(output.status == 0, "\(output)\n\(bus.logTail())")
            try #require(output.objects.count == 20, "\(output)")
            for (index, result) in output.objects.enumerated() {
                #expect(result["client"] as? Int == index)
                #expect(result["response"] as? Int == 0, "\(result)")
                #expect((result["results"] as? [String: Any])?["disposition"] as? String == "copied", "\(result)")
                #expect((result["handle"] as? String)?.hasSuffix("/c\(index)") == true, "\(result)")
                #expect(result["signal_path"] == nil, "a Response came on another path: \(result)")
            }
            #expect(Set(output.objects.compactMap { $0["handle"] as? String }).count == 20)
            let pasted = try await Share.run(["paste"], home: home)
            #expect((0..<20).map { "text \($0)" }.contains(pasted.standardOutput), "pasted: \(pasted.standardOutput)")
        }
    }

    // MARK: - Support

    /// Runs `body` with the real service activatable on a private bus in a new home, then checks
    /// that stopping the bus leaves nothing of it running.
    private func withService(_ body: (TemporaryHome, ServiceBus, ServiceClient) async throws -> Void) async throws {
        let home = try TemporaryHome(prefix: "service")
        defer { home.remove() }
        let bus = try ServiceBus.start(home: home)
        defer { bus.stop() }
        try await body(home, bus, ServiceClient(bus: bus))
        let running = bus.processIDs
        bus.stop()
        #expect(running.filter(DesktopSession.isRunning).isEmpty, "still running after stop: \(running)")
    }
}

extension ServiceBus {
    /// The service's PID through `client`'s bus; fails when no one owns the name.
    /// The service proper's PID (after the front has handed over).
    static func ownerPIDOrFail(_ client: ServiceClient) async throws -> pid_t {
        try await client.bus.servicePID()
    }
}
