import Foundation
import LocalTestSupport
import Testing

/// `share receive` (libsoup, in their namespace) against our sender (in ours), and against a
/// hostile sender written in Python.
@Suite("share receive between two network namespaces", .serialized)
struct ReceiverTests {
    private struct Setup {
        var pair: NetworkPair
        var folder: URL
        var receiverHome: URL { folder.appendingPathComponent("receiver") }
        var downloads: URL { receiverHome.appendingPathComponent("Downloads") }
        var senderHome: URL { folder.appendingPathComponent("sender") }

        func received() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: downloads.path)) ?? []).sorted()
        }
    }

    /// A namespace pair and a receiver `share receive ARGUMENTS` in theirs, aliased "Desk".
    /// `before` runs first, with the receiver's folders made but nothing started.
    private func withReceiver(
        _ arguments: [String], before: (Setup) throws -> Void = { _ in }, _ body: (Setup, NamespacedProcess) throws -> Void
    ) throws {
        let folder = try TemporaryFolder.make("nearby-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let pair = try NetworkPair()
        defer { pair.remove() }
        let setup = Setup(pair: pair, folder: folder)
        let config = setup.receiverHome.appendingPathComponent("config/sharesheet")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "[nearby]\nalias=Desk\n".write(to: config.appendingPathComponent("config"), atomically: true, encoding: .utf8)
        try before(setup)
        let receiver = try ShareTool.start(
            ["receive"] + arguments, namespace: pair.theirs, home: setup.receiverHome, log: folder.appendingPathComponent("receiver.log"))
        defer { receiver.stop() }
        #expect(receiver.waitForOutput(containing: "receiving as"), "\(receiver.output)")
        try body(setup, receiver)
    }

    private func send(_ arguments: [String], _ setup: Setup) throws -> Command.Result {
        try ShareTool.run(["--activity", "airdrop"] + arguments, namespace: setup.pair.ours, home: setup.senderHome)
    }

    @Test("our sender finds our receiver by its alias and three files arrive byte-identical")
    func ourSenderToOurReceiver() throws {
        try withReceiver(["--accept-all"]) { setup, receiver in
            var files: [URL] = []
            for (index, name) in ["photo.jpg", "a b;c.png", "notes.txt"].enumerated() {
                let file = setup.folder.appendingPathComponent(name)
                try writeRandomFile(file, size: 2_000_000 + index * 31, seed: UInt64(10 + index))
                files.append(file)
            }
            let result = try send(["--to", "Desk", "--json"] + files.map(\.path), setup)
            #expect(result.status == 0, "\(result)\n\(receiver.output)")
            #expect(setup.received() == ["a b;c.png", "notes.txt", "photo.jpg"], "\(receiver.output)")
            for file in files {
                #expect(filesAreIdentical(file, setup.downloads.appendingPathComponent(file.lastPathComponent)))
            }
            // Again: the same names get numbered, never replaced.
            let again = try send(["--to", setup.pair.theirAddress, files[0].path], setup)
            #expect(again.status == 0, "\(again)")
            #expect(setup.received().contains("photo 2.jpg"))
            // The receiver's identity is private to its user.
            let key = setup.receiverHome.appendingPathComponent("data/sharesheet/nearby/key.pem")
            let mode = try FileManager.default.attributesOfItem(atPath: key.path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
        }
    }

    @Test("a text message is shown by the receiver and answered 204")
    func textMessage() throws {
        try withReceiver(["--accept-all"]) { setup, receiver in
            let result = try send(["--to", setup.pair.theirAddress, "--text", "see you at 6"], setup)
            #expect(result.status == 0, "\(result)")
            #expect(receiver.waitForOutput(containing: ": see you at 6", timeout: 10), "\(receiver.output)")
            #expect(setup.received().isEmpty)
        }
    }

    @Test("a PIN is required and checked")
    func pin() throws {
        try withReceiver(["--accept-all", "--pin", "2468"]) { setup, _ in
            let file = setup.folder.appendingPathComponent("doc.pdf")
            try writeRandomFile(file, size: 5000)
            let missing = try send(["--to", setup.pair.theirAddress, file.path], setup)
            #expect(missing.status == 64, "\(missing)")
            let wrong = try send(["--to", setup.pair.theirAddress, "--set", "pin=1357", file.path], setup)
            #expect(wrong.status == 64, "\(wrong)")
            #expect(wrong.standardError.contains("did not accept the PIN"), "\(wrong)")
            #expect(setup.received().isEmpty)
            let right = try send(["--to", setup.pair.theirAddress, "--set", "pin=2468", file.path], setup)
            #expect(right.status == 0, "\(right)")
            #expect(setup.received() == ["doc.pdf"])
        }
    }

    @Test("a declined transfer ends with completed = false and writes nothing")
    func declined() throws {
        // No --accept-all and no terminal to ask: the receiver declines.
        try withReceiver([]) { setup, receiver in
            let file = setup.folder.appendingPathComponent("doc.pdf")
            try writeRandomFile(file, size: 5000)
            let result = try send(["--to", setup.pair.theirAddress, "--json", file.path], setup)
            #expect(result.status == 1, "\(result)")
            #expect(result.standardOutput.contains("\"completed\":false"), "\(result)")
            #expect(setup.received().isEmpty)
            #expect(receiver.waitForOutput(containing: "declined", timeout: 5), "\(receiver.output)")
        }
    }

    @Test("a dismissal mid-transfer leaves no partial file on the receiver")
    func dismissalMidTransfer() throws {
        try withReceiver(["--accept-all"]) { setup, receiver in
            let file = setup.folder.appendingPathComponent("movie.mkv")
            try writeRandomFile(file, size: 400 * 1024 * 1024, seed: 3)
            let binary = try #require(Share.url).path
            let sender = try Command.start(
                "/usr/sbin/ip",
                ["netns", "exec", setup.pair.ours, "/usr/bin/env", "-i"]
                    + TemporaryHome.environment(home: setup.senderHome).map { "\($0.key)=\($0.value)" }
                    + [binary, "--activity", "airdrop", "--to", setup.pair.theirAddress, file.path])
            defer { sender.remove() }
            // Wait until the upload is streaming into the receiver's temporary file, then Ctrl-C.
            let deadline = Date().addingTimeInterval(60)
            var sawPartial = false
            while Date() < deadline, sender.isRunning {
                if setup.received().contains(where: { $0.hasSuffix(".sharesheet-part") }) {
                    sawPartial = true
                    break
                }
                Thread.sleep(forTimeInterval: 0.005)
            }
            sender.kill(SIGINT)
            sender.waitUntilExit()
            #expect(sawPartial, "the upload was never seen in progress")
            #expect(sender.terminationStatus == 130)
            // The receiver drops the temporary file when the sender cancels or goes away.
            let settle = Date().addingTimeInterval(10)
            while Date() < settle, !setup.received().isEmpty { Thread.sleep(forTimeInterval: 0.05) }
            #expect(setup.received().isEmpty, "\(setup.received())\n\(receiver.output)")
        }
    }

    @Test("a killed receiver's temporary file goes when the next receiver starts; a running writer's stays")
    func deadWriterTemporaries() throws {
        let deadPID = try Command.deadPID()
        var host = [CChar](repeating: 0, count: 256)
        gethostname(&host, host.count - 1)
        let hostName = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let dead = ".\(deadPID).\(UUID().uuidString).\(hostName).sharesheet-part"
        let alive = ".\(getpid()).\(UUID().uuidString).\(hostName).sharesheet-part"
        // A name without a PID (before #15) keeps the age rule: gone after 36 hours untouched.
        let oldStale = ".\(UUID().uuidString).sharesheet-part"
        let oldFresh = ".\(UUID().uuidString).sharesheet-part"
        try withReceiver(["--accept-all"], before: { setup in
            try FileManager.default.createDirectory(at: setup.downloads, withIntermediateDirectories: true)
            for name in [dead, alive, oldStale, oldFresh] {
                try Data("half a file".utf8).write(to: setup.downloads.appendingPathComponent(name))
            }
            try FileManager.default.setAttributes(
                [.modificationDate: Date().addingTimeInterval(-37 * 3600)], ofItemAtPath: setup.downloads.appendingPathComponent(oldStale).path)
        }) { setup, receiver in
            let file = setup.folder.appendingPathComponent("doc.pdf")
            try writeRandomFile(file, size: 70_000)
            let result = try send(["--to", setup.pair.theirAddress, file.path], setup)
            #expect(result.status == 0, "\(result)\n\(receiver.output)")
            #expect(setup.received() == [dead, alive, oldStale, oldFresh, "doc.pdf"].filter { $0 != dead && $0 != oldStale }.sorted())
        }
    }

    @Test("a hostile sender cannot write outside the folder or disturb a running session")
    func hostileSender() throws {
        try withReceiver(["--accept-all"]) { setup, receiver in
            let outside = setup.folder.appendingPathComponent("outside")
            try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
            let script = URL(fileURLWithPath: Self.hostileScript)
            let environment = TemporaryHome.environment(home: setup.folder)
            // From our namespace: odd names, wrong tokens, a second session, a wrong length.
            let first = try Command.run(
                "/usr/sbin/ip",
                ["netns", "exec", setup.pair.ours, "/usr/bin/env", "-i"] + environment.map { "\($0.key)=\($0.value)" }
                    + [LocalSendPeer.python, script.path, "names", setup.pair.theirAddress, outside.path])
            #expect(first.status == 0, "\(first)\n\(receiver.output)")
            let results = first.standardOutput
            #expect(results.contains("prepare 200"), "\(results)")
            #expect(results.contains("wrong-token 403"), "\(results)")
            #expect(results.contains("second-session 409"), "\(results)")
            #expect(results.contains("wrong-length 400"), "\(results)")
            #expect(results.contains("reused-token 403"), "\(results)")
            #expect(results.contains("foreign-cancel 403"), "\(results)")
            // From their own namespace's loopback: another address than the session's.
            let second = try Command.run(
                "/usr/sbin/ip",
                ["netns", "exec", setup.pair.theirs, "/usr/bin/env", "-i"] + environment.map { "\($0.key)=\($0.value)" }
                    + [LocalSendPeer.python, script.path, "address", "127.0.0.1", outside.path, first.standardOutput])
            #expect(second.status == 0, "\(second)")
            #expect(second.standardOutput.contains("other-address-upload 403"), "\(second)")
            #expect(second.standardOutput.contains("other-address-cancel 403"), "\(second)")
            // Finish the session properly from the right address.
            let third = try Command.run(
                "/usr/sbin/ip",
                ["netns", "exec", setup.pair.ours, "/usr/bin/env", "-i"] + environment.map { "\($0.key)=\($0.value)" }
                    + [LocalSendPeer.python, script.path, "finish", setup.pair.theirAddress, outside.path, first.standardOutput])
            #expect(third.status == 0, "\(third)")
            #expect(third.standardOutput.contains("finish 200 200 200 200"), "\(third)")
            // Everything landed inside the folder, under safe names; nothing outside it.
            #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
            #expect(!FileManager.default.fileExists(atPath: setup.receiverHome.appendingPathComponent("escape.txt").path))
            #expect(!FileManager.default.fileExists(atPath: setup.folder.appendingPathComponent("escape.txt").path))
            let names = setup.received()
            #expect(names.count == 4, "\(names)")
            #expect(names.allSatisfy { !$0.contains("/") && !$0.hasPrefix(".") && !$0.contains("\0") }, "\(names)")
            #expect(names.contains("escape.txt") && names.contains("abs.txt"), "\(names)")
        }
    }

    /// The hostile sender: plain Python, TLS without verification, talking LocalSend directly
    /// (`Tests/Fixtures/localsend-hostile-sender.py`).
    private static let hostileScript = Fixture.path("localsend-hostile-sender.py")
}
