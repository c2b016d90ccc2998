import Foundation
import LocalTestSupport
import Testing

/// `share receive` (in their namespace) against senders that misbehave: many transfers under a
/// small descriptor limit, a sender that goes silent mid-body, huge bodies, control characters.
/// Our own sender and `Tests/Fixtures/localsend-abuser.py` send from our namespace.
@Suite("share receive survives abuse", .serialized)
struct ReceiverAbuseTests {
    private struct Receiver {
        var pair: NetworkPair
        var folder: URL
        var process: NamespacedProcess
        var pid: pid_t
        var home: URL { folder.appendingPathComponent("receiver") }
        var downloads: URL { home.appendingPathComponent("Downloads") }
        var senderHome: URL { folder.appendingPathComponent("sender") }

        func received() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: downloads.path)) ?? []).sorted()
        }

        /// The receiver's open descriptors.
        func descriptors() -> Int {
            ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []).count
        }

        /// A `/proc/PID/status` field in kB (`VmHWM`, `VmRSS`).
        func memory(_ field: String) -> Int {
            let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
        }

        /// Runs the abuser in our namespace, to its end.
        func abuse(_ arguments: [String], timeout: Double = 300) throws -> Command.Result {
            try Command.run(
                "/usr/sbin/ip",
                ["netns", "exec", pair.ours, "/usr/bin/env", "-i"]
                    + TemporaryHome.environment(home: folder).map { "\($0.key)=\($0.value)" }
                    + [LocalSendPeer.python, Abuser.script.path] + arguments,
                timeout: timeout)
        }

        func send(_ arguments: [String]) throws -> Command.Result {
            try ShareTool.run(["--activity", "airdrop"] + arguments, namespace: pair.ours, home: senderHome)
        }
    }

    /// A namespace pair and `share receive ARGUMENTS` in theirs (its PID known; at most 64 open
    /// descriptors when `limit`), stopped at the end.
    private func withReceiver(_ arguments: [String], limit: Bool = false, _ body: (Receiver) throws -> Void) throws {
        let folder = try TemporaryFolder.make("nearby-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let pair = try NetworkPair()
        defer { pair.remove() }
        let home = folder.appendingPathComponent("receiver")
        let config = home.appendingPathComponent("config/sharesheet")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "[nearby]\nalias=Desk\nenabled=false\n".write(to: config.appendingPathComponent("config"), atomically: true, encoding: .utf8)
        let binary = try #require(Share.url).path
        let pidFile = folder.appendingPathComponent("receiver.pid")
        // The shell's PID becomes the receiver's: prlimit and share replace it in turn.
        let script = limit ? "echo $$ > \"$0\" && exec /usr/bin/prlimit --nofile=64:64 -- \"$@\"" : "echo $$ > \"$0\" && exec \"$@\""
        let process = try NamespacedProcess(
            namespace: pair.theirs, command: ["/bin/sh", "-c", script, pidFile.path, binary, "receive"] + arguments,
            environment: TemporaryHome.environment(home: home), log: folder.appendingPathComponent("receiver.log"))
        defer { process.stop() }
        try #require(process.waitForOutput(containing: "receiving as"), "\(process.output)")
        let pid = try #require(pid_t((try String(contentsOf: pidFile, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)))
        try body(Receiver(pair: pair, folder: folder, process: process, pid: pid))
    }

    /// 100, or `SHARESHEET_TRANSFERS` for the 1,000-transfer measurement in BENCHMARKS.md.
    private static let transfers = ProcessInfo.processInfo.environment["SHARESHEET_TRANSFERS"].flatMap { Int($0) } ?? 100

    @Test("100 transfers under a 64-descriptor limit all arrive, and closed connections are released")
    func descriptorsStayFlat() throws {
        try withReceiver(["--accept-all"], limit: true) { receiver in
            let limits = try String(contentsOfFile: "/proc/\(receiver.pid)/limits", encoding: .utf8)
            #expect(limits.split(separator: "\n").contains { $0.hasPrefix("Max open files") && $0.contains(" 64 ") }, "\(limits)")
            let file = receiver.folder.appendingPathComponent("note.bin")
            try writeRandomFile(file, size: 3000, seed: 15)
            var failures: [String] = []
            var counts: [Int] = []
            let every = max(10, Self.transfers / 10)
            for index in 1...Self.transfers {
                let result = try receiver.send(["--to", receiver.pair.theirAddress, file.path])
                if result.status != 0 { failures.append("#\(index): \(result)") }
                if index % every == 0 { counts.append(receiver.descriptors()) }
            }
            #expect(failures.isEmpty, "\(failures.prefix(3))\n\(receiver.process.output.suffix(2000))")
            #expect(receiver.received().count == Self.transfers)
            // Connections that close before a request, with and without a TLS handshake.
            let idle = try receiver.abuse(["idle", receiver.pair.theirAddress, "40"])
            #expect(idle.standardOutput.contains("idle 40"), "\(idle)")
            Thread.sleep(forTimeInterval: 0.5)
            counts.append(receiver.descriptors())
            // Flat: the last count no higher than after the first ten transfers (a leak was 3
            // descriptors per transfer).
            #expect(counts.allSatisfy { $0 > 0 && $0 <= counts[0] + 2 }, "descriptors every \(every) transfers: \(counts)")
            print("descriptors every \(every) transfers, then after 40 idle connections: \(counts)")
        }
    }

    @Test("a sender silent mid-body is cut off, and the next sender's transfer goes through")
    func stalledUpload() throws {
        try withReceiver(["--accept-all", "--timeout", "2"]) { receiver in
            let environment = TemporaryHome.environment(home: receiver.folder)
            let staller = try Command.start(
                "/usr/sbin/ip",
                ["netns", "exec", receiver.pair.ours, "/usr/bin/env", "-i"] + environment.map { "\($0.key)=\($0.value)" }
                    + [LocalSendPeer.python, Abuser.script.path, "stall", receiver.pair.theirAddress])
            defer {
                staller.kill(SIGKILL)
                staller.waitUntilExit()
                staller.remove()
            }
            let stalledBy = Date().addingTimeInterval(30)
            while Date() < stalledBy, !((try? String(contentsOf: staller.output, encoding: .utf8)) ?? "").contains("stalled") {
                Thread.sleep(forTimeInterval: 0.05)
            }
            let stalled = (try? String(contentsOf: staller.output, encoding: .utf8)) ?? ""
            #expect(stalled.contains("prepare 200") && stalled.contains("stalled"), "\(stalled)")
            let file = receiver.folder.appendingPathComponent("after.bin")
            try writeRandomFile(file, size: 200_000, seed: 16)
            // The staller's session holds the receiver (409) until its upload is cut off.
            var last: Command.Result?
            let deadline = Date().addingTimeInterval(90)
            while Date() < deadline {
                let result = try receiver.send(["--to", receiver.pair.theirAddress, file.path])
                last = result
                if result.status == 0 { break }
                Thread.sleep(forTimeInterval: 0.5)
            }
            #expect(last?.status == 0, "\(String(describing: last))\n\(receiver.process.output)")
            #expect(receiver.received() == ["after.bin"], "\(receiver.received())")
            #expect(filesAreIdentical(file, receiver.downloads.appendingPathComponent("after.bin")))
            let log = receiver.process.output
            #expect(log.contains("refused upload from \(receiver.pair.ourAddress): the connection ended"), "\(log)")
            #expect(log.contains("the transfer from Staller did not complete"), "\(log)")
        }
    }

    @Test("a 400 MB body with a wrong PIN gets 401 without being kept; an oversized JSON body gets 413")
    func hugeBodies() throws {
        let size = String(400 * 1024 * 1024)
        try withReceiver(["--accept-all", "--pin", "2468"]) { receiver in
            let before = receiver.memory("VmHWM")
            let wrong = try receiver.abuse(["big", receiver.pair.theirAddress, "/api/localsend/v2/prepare-upload?pin=1357", size])
            #expect(wrong.standardOutput.contains("big 401"), "\(wrong)")
            let missing = try receiver.abuse(["big", receiver.pair.theirAddress, "/api/localsend/v2/prepare-upload", "1000000"])
            #expect(missing.standardOutput.contains("big 401"), "\(missing)")
            let after = receiver.memory("VmHWM")
            print("receiver VmHWM before \(before) kB, after a 400 MB body with a wrong PIN \(after) kB; VmRSS \(receiver.memory("VmRSS")) kB")
            #expect(before > 0 && after - before < 32 * 1024, "VmHWM grew from \(before) kB to \(after) kB")
            let lines = receiver.process.output.split(separator: "\n").filter { $0.hasPrefix("refused prepare-upload") }
            #expect(lines == [
                "refused prepare-upload from \(receiver.pair.ourAddress) (401): wrong PIN",
                "refused prepare-upload from \(receiver.pair.ourAddress) (401): no PIN",
            ], "\(receiver.process.output)")
        }
        try withReceiver(["--accept-all"]) { receiver in
            let before = receiver.memory("VmHWM")
            let big = try receiver.abuse(["big", receiver.pair.theirAddress, "/api/localsend/v2/prepare-upload", size])
            #expect(big.standardOutput.contains("big 413"), "\(big)")
            let chunked = try receiver.abuse(["chunked", receiver.pair.theirAddress, "/api/localsend/v2/register", "20000000"])
            #expect(chunked.standardOutput.contains("chunked 413"), "\(chunked)")
            let after = receiver.memory("VmHWM")
            #expect(before > 0 && after - before < 32 * 1024, "VmHWM grew from \(before) kB to \(after) kB")
            let log = receiver.process.output
            #expect(log.contains("refused prepare-upload from \(receiver.pair.ourAddress) (413)"), "\(log)")
            #expect(log.contains("refused register from \(receiver.pair.ourAddress) (413)"), "\(log)")
            // Still serving.
            let file = receiver.folder.appendingPathComponent("fine.txt")
            try writeRandomFile(file, size: 1000)
            let result = try receiver.send(["--to", receiver.pair.theirAddress, file.path])
            #expect(result.status == 0, "\(result)")
        }
    }

    @Test("control characters from a peer reach neither the output nor the saved name")
    func controlCharacters() throws {
        try withReceiver(["--accept-all"]) { receiver in
            let result = try receiver.abuse(["controls", receiver.pair.theirAddress])
            #expect(result.standardOutput.contains("prepare 200") && result.standardOutput.contains("upload 200"), "\(result)")
            #expect(receiver.process.waitForOutput(containing: "received everything", timeout: 10))
            let names = receiver.received()
            #expect(names.count == 1, "\(names)")
            let name = names.first ?? ""
            #expect(!name.unicodeScalars.contains { Self.isControl($0) }, "\(name.debugDescription)")
            #expect(name.contains("\u{FFFD}") && name.contains("red") && name.hasSuffix(".txt"), "\(name.debugDescription)")
            let output = receiver.process.output
            #expect(!output.unicodeScalars.contains { $0 != "\n" && Self.isControl($0) }, "\(output.debugDescription)")
            #expect(output.contains("Evil\u{FFFD}[2J\u{FFFD}[HAlias"), "\(output.debugDescription)")
        }
    }

    @Test("share receive --help answers; a folder that cannot be used is named")
    func helpAndFolder() throws {
        let folder = try TemporaryFolder.make("nearby-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let pair = try NetworkPair()
        defer { pair.remove() }
        let help = try ShareTool.run(["receive", "--help"], namespace: pair.theirs, home: folder)
        #expect(help.status == 0, "\(help)")
        #expect(help.standardOutput.contains("usage: share receive") && help.standardOutput.contains("--timeout"), "\(help)")
        let notFolder = folder.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: notFolder)
        let result = try ShareTool.run(["receive", "--accept-all", "--folder", notFolder.path], namespace: pair.theirs, home: folder)
        #expect(result.status == 74, "\(result)")
        #expect(result.standardError.contains("cannot receive into \(notFolder.path)"), "\(result)")
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}

/// `Tests/Fixtures/localsend-abuser.py` in this repository.
enum Abuser {
    static let script = Fixture.url("localsend-abuser.py")
}
