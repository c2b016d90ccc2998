// An AirDrop to a device that is not there now waits in the share queue (SPEC §14) and goes
// when the device is back: by itself while the service runs, or with `share outbox flush`. Our
// `share` runs in one network namespace, the receiver (localsendd) in the other, started only
// after the share was queued.
import Foundation
import LocalTestSupport
import Testing

@Suite("A queued AirDrop goes when its device is back", .serialized, .enabled(if: getuid() == 0, "network namespaces need root"))
struct QueuedAirDropTests {
    /// The discovery period the tests configure: the service announces this often while an
    /// AirDrop waits, so a receiver that appears is heard within it.
    static let period = 3.0

    /// A home whose configuration looks for devices 2 s and announces every `period`.
    private static func home(_ prefix: String) throws -> TemporaryHome {
        let home = try TemporaryHome(prefix: prefix)
        try FileManager.default.createDirectory(at: home.configFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "[nearby]\ndiscovery-timeout=2\ndiscovery-period=\(Int(period))\n".write(
            to: home.configFile, atomically: true, encoding: .utf8)
        return home
    }

    /// A PNG signature then random bytes: sniffed as an image, so said as "the photo".
    private static func photo(in home: TemporaryHome, _ name: String = "photo.png", size: Int = 300_000) throws -> URL {
        let url = home.root.appendingPathComponent(name)
        try writeRandomFile(url, size: size, seed: 11)
        let handle = try FileHandle(forWritingTo: url)
        try handle.write(contentsOf: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        try handle.close()
        return url
    }

    private static func share(_ arguments: [String], home: TemporaryHome, pair: NetworkPair) async throws -> Share.Run {
        try await Share.finish(Share.start(arguments, home: home, namespace: pair.ours), timeout: 120)
    }

    /// `share outbox list --json`, decoded.
    static func outbox(_ home: TemporaryHome) async throws -> [[String: Any]] {
        let run = try await Share.run(["outbox", "list", "--json"], home: home)
        #expect(run.status == 0, "\(run.standardError)")
        return try #require(JSONSerialization.jsonObject(with: run.output) as? [[String: Any]], "\(run.standardOutput)")
    }

    @Test("to a receiver that is down: exit 75 and one queued entry; the service sends it once, within a discovery period of the receiver appearing")
    func serviceSendsWhenTheDeviceAppears() async throws {
        let home = try Self.home("queued-airdrop-service")
        defer { home.remove() }
        let pair = try NetworkPair()
        defer { pair.remove() }
        let photo = try Self.photo(in: home)

        let queued = try await Self.share(["--activity", "airdrop", "--to", "Ana's Pixel", photo.path], home: home, pair: pair)
        #expect(queued.status == 75, "\(queued.standardError)")
        #expect(queued.standardError.contains("Ana's Pixel is not nearby; the photo will go when it is."), "\(queued.standardError)")
        let waiting = try await Self.outbox(home)
        #expect(waiting.count == 1, "\(waiting)")
        #expect(waiting.first?["kind"] as? String == "airdrop")
        #expect(waiting.first?["state"] as? String == "queued")
        #expect(waiting.first?["recipients"] as? [String] == ["Ana's Pixel"])
        #expect(waiting.first?["reason"] as? String == "Ana's Pixel was not nearby.")

        // The service, on a private bus, in our namespace: it looks for the device meanwhile.
        let bus = try ServiceBus.start(home: home)
        defer { bus.stop() }
        let service = try Share.start(
            ["--service"], home: home,
            extra: ["DBUS_SESSION_BUS_ADDRESS": bus.address, "SHARESHEET_SERVICE_IDLE_SECONDS": "600"], namespace: pair.ours)
        defer {
            kill(service.pid, SIGKILL)
            _ = Spawn.waitBlocking(service.pid)
        }
        try await Task.sleep(for: .seconds(Self.period + 1))
        #expect(try await Self.outbox(home).count == 1, "nothing to send to yet")

        let receiver = try LocalSendPeer(
            namespace: pair.theirs, home: home.root.appendingPathComponent("peer", isDirectory: true), alias: "Ana's Pixel")
        defer { receiver.stop() }
        let appeared = Date()
        while receiver.receivedFiles().isEmpty, Date().timeIntervalSince(appeared) < 30 {
            try await Task.sleep(for: .milliseconds(50))
        }
        let took = Date().timeIntervalSince(appeared)
        // One period to be heard from, the rest is the transfer of 300 kB on the link.
        #expect(took <= Self.period + 2, "delivered \(took) s after the receiver appeared; service: \(Self.errors(of: service))")
        // Long enough for a second send, were there one.
        try await Task.sleep(for: .seconds(2 * Self.period))
        #expect(receiver.receivedFiles() == ["photo.png"], "\(receiver.receivedFiles())")
        #expect(filesAreIdentical(photo, receiver.downloads.appendingPathComponent("photo.png")))
        #expect(try await Self.outbox(home).isEmpty)
        #expect(Self.errors(of: service).contains("queue: sent"), "\(Self.errors(of: service))")
        // Built with the thread sanitizer, the service says any race on its standard error.
        #expect(!Self.errors(of: service).contains("ThreadSanitizer"), "\(Self.errors(of: service))")
    }

    @Test("queued by alias and by address while the receiver is down; share outbox flush sends both at once when it is up")
    func flushSendsWhenTheDeviceIsUp() async throws {
        let home = try Self.home("queued-airdrop-flush")
        defer { home.remove() }
        let pair = try NetworkPair()
        defer { pair.remove() }
        let photo = try Self.photo(in: home)
        let notes = home.root.appendingPathComponent("notes.txt")
        try Data("for the desk\n".utf8).write(to: notes)

        let byAlias = try await Self.share(["--activity", "airdrop", "--to", "Desk Laptop", photo.path], home: home, pair: pair)
        #expect(byAlias.status == 75, "\(byAlias.standardError)")
        // Nothing listens there: the connection is refused, and the share waits for the address.
        let byAddress = try await Self.share(
            ["--activity", "airdrop", "--to", pair.theirAddress, "--json", notes.path], home: home, pair: pair)
        #expect(byAddress.status == 75, "\(byAddress.standardError)")
        #expect(byAddress.standardError.contains("\(pair.theirAddress) does not answer; notes.txt will go when it does."))
        let result = try #require(JSONSerialization.jsonObject(with: byAddress.output) as? [String: Any], "\(byAddress.standardOutput)")
        #expect(result["disposition"] as? String == "queued")
        #expect(result["error"] is NSNull)
        let waiting = try await Self.outbox(home)
        #expect(waiting.map { $0["recipients"] as? [String] ?? [] } == [["Desk Laptop"], [pair.theirAddress]], "\(waiting)")
        #expect(waiting.last?["reason"] as? String == "Nothing answered at \(pair.theirAddress).")
        // The file was copied into the entry: changing the original now does not change what goes.
        let sent = home.root.appendingPathComponent("as-queued.txt")
        try FileManager.default.copyItem(at: notes, to: sent)
        try Data("changed after queueing\n".utf8).write(to: notes)

        let receiver = try LocalSendPeer(
            namespace: pair.theirs, home: home.root.appendingPathComponent("peer", isDirectory: true), alias: "Desk Laptop")
        defer { receiver.stop() }
        let flush = try await Self.share(["outbox", "flush"], home: home, pair: pair)
        #expect(flush.status == 0, "\(flush.standardError)")
        #expect(flush.standardOutput.contains("to Desk Laptop\n"), "\(flush.standardOutput)")
        #expect(flush.standardOutput.contains("to \(pair.theirAddress)\n"), "\(flush.standardOutput)")
        #expect(receiver.receivedFiles() == ["notes.txt", "photo.png"], "\(receiver.receivedFiles())")
        #expect(filesAreIdentical(photo, receiver.downloads.appendingPathComponent("photo.png")))
        #expect(filesAreIdentical(sent, receiver.downloads.appendingPathComponent("notes.txt")))
        #expect(try await Self.outbox(home).isEmpty)
        // Nothing left to send: a second flush sends nothing again.
        let again = try await Self.share(["outbox", "flush"], home: home, pair: pair)
        #expect(again.status == 0 && again.standardOutput.isEmpty, "\(again.standardOutput)")
        #expect(receiver.receivedFiles() == ["notes.txt", "photo.png"])
    }

    @Test("a queued AirDrop whose receiver asks for a PIN stays queued, saying to send it from the sheet")
    func pinKeepsItForAPerson() async throws {
        let home = try Self.home("queued-airdrop-pin")
        defer { home.remove() }
        let pair = try NetworkPair()
        defer { pair.remove() }
        let photo = try Self.photo(in: home)
        let queued = try await Self.share(["--activity", "airdrop", "--to", pair.theirAddress, photo.path], home: home, pair: pair)
        #expect(queued.status == 75, "\(queued.standardError)")
        let receiver = try LocalSendPeer(
            namespace: pair.theirs, home: home.root.appendingPathComponent("peer", isDirectory: true), pin: "4711")
        defer { receiver.stop() }
        let flush = try await Self.share(["outbox", "flush"], home: home, pair: pair)
        #expect(flush.status != 0, "\(flush.standardOutput)")
        #expect(flush.standardError.contains("asks for a PIN"), "\(flush.standardError)")
        let waiting = try await Self.outbox(home)
        #expect(waiting.count == 1)
        #expect(
            waiting.first?["reason"] as? String
                == "\(pair.theirAddress) asks for a PIN: send it again from the share sheet and give the PIN there.",
            "\(waiting)")
        #expect(receiver.receivedFiles().isEmpty)
    }

    @Test("idle, the service stays up while an AirDrop waits for its device, up to SHARESHEET_SERVICE_QUEUE_SECONDS; it stays queued after")
    func serviceStaysUpWhileSharesWait() async throws {
        let home = try Self.home("queued-airdrop-idle")
        defer { home.remove() }
        let pair = try NetworkPair()
        defer { pair.remove() }
        let photo = try Self.photo(in: home)
        let queued = try await Self.share(["--activity", "airdrop", "--to", "Ana's Pixel", photo.path], home: home, pair: pair)
        #expect(queued.status == 75, "\(queued.standardError)")

        let bus = try ServiceBus.start(home: home)
        defer { bus.stop() }
        let began = Date()
        let service = try Share.start(
            ["--service"], home: home,
            extra: [
                "DBUS_SESSION_BUS_ADDRESS": bus.address, "SHARESHEET_SERVICE_IDLE_SECONDS": "1",
                "SHARESHEET_SERVICE_QUEUE_SECONDS": "5",
            ],
            namespace: pair.ours)
        // Idle for 1 s but something waits: still up well after that.
        try await Task.sleep(for: .seconds(3))
        var status: Int32 = 0
        #expect(waitpid(service.pid, &status, WNOHANG) == 0, "the service exited while a share waited for its device")
        let ended = try await Share.finish(service, timeout: 30)
        let lasted = Date().timeIntervalSince(began)
        #expect(ended.status == 0, "\(ended.standardError)")
        #expect(lasted >= 5 && lasted < 15, "the service lasted \(lasted) s")
        let waiting = try await Self.outbox(home)
        #expect(waiting.count == 1 && waiting.first?["state"] as? String == "queued", "\(waiting)")
    }

    static func errors(of started: Share.Started) -> String {
        (try? String(contentsOf: started.error, encoding: .utf8)) ?? ""
    }
}
