import Foundation
import LocalTestSupport
import Testing

/// Our sender (`share --activity airdrop`) against localsendd, an independent LocalSend
/// implementation from PyPI, each in its own network namespace joined by a veth pair.
@Suite("AirDrop sends to localsendd between two network namespaces", .serialized)
struct SenderTests {
    /// Runs `body` with a fresh namespace pair and a localsendd in theirs; removes everything after.
    private func withPeer(
        unattended: Bool = true, pin: String? = nil,
        _ body: (NetworkPair, LocalSendPeer, URL) throws -> Void
    ) throws {
        let folder = try TemporaryFolder.make("nearby-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let pair = try NetworkPair()
        defer { pair.remove() }
        let daemon = try LocalSendPeer(
            namespace: pair.theirs, home: folder.appendingPathComponent("peer"), unattended: unattended, pin: pin)
        defer { daemon.stop() }
        try body(pair, daemon, folder)
    }

    private func share(_ arguments: [String], in pair: NetworkPair, folder: URL, environment: [String: String] = [:]) throws
        -> Command.Result
    {
        try ShareTool.run(arguments, namespace: pair.ours, home: folder.appendingPathComponent("us"), extraEnvironment: environment)
    }

    /// What `share outbox list --json` prints for our side: `[]` when nothing was queued. A
    /// receiver that said no, wants a PIN or is not who it claims fails the share; it never waits.
    private func outbox(in pair: NetworkPair, folder: URL) throws -> String {
        try share(["outbox", "list", "--json"], in: pair, folder: folder).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("a text found by discovery arrives as the same bytes")
    func textByDiscovery() throws {
        try withPeer { pair, daemon, folder in
            let text = "Grüße from the other namespace ✓\nsecond line"
            let result = try share(["--activity", "airdrop", "--to", daemon.alias, "--json", "--text", text], in: pair, folder: folder)
            #expect(result.status == 0, "\(result)")
            #expect(result.standardOutput.contains("\"completed\":true"), "\(result)")
            let files = daemon.receivedFiles()
            #expect(files.count == 1, "\(files)\n\(daemon.process.output)")
            if let name = files.first {
                let data = try Data(contentsOf: daemon.downloads.appendingPathComponent(name))
                #expect(data == Data(text.utf8))
            }
        }
    }

    @Test("a 100 MB file arrives byte-identical, addressed by fingerprint")
    func largeFile() throws {
        try withPeer { pair, daemon, folder in
            let file = folder.appendingPathComponent("big video.bin")
            try writeRandomFile(file, size: 100 * 1024 * 1024, seed: 7)
            let result = try share(["--activity", "airdrop", "--to", daemon.fingerprint, file.path], in: pair, folder: folder)
            #expect(result.status == 0, "\(result)")
            #expect(daemon.receivedFiles() == ["big video.bin"], "\(daemon.process.output)")
            #expect(filesAreIdentical(file, daemon.downloads.appendingPathComponent("big video.bin")))
        }
    }

    @Test("three files at once arrive byte-identical, to a typed address")
    func threeFiles() throws {
        try withPeer { pair, daemon, folder in
            var files: [URL] = []
            for (index, name) in ["a b;c.png", "notes.txt", "data.bin"].enumerated() {
                let file = folder.appendingPathComponent(name)
                try writeRandomFile(file, size: 3 * 1024 * 1024 + index * 777, seed: UInt64(index + 2))
                files.append(file)
            }
            let result = try share(
                ["--activity", "airdrop", "--to", "\(pair.theirAddress):53317"] + files.map(\.path), in: pair, folder: folder,
                environment: ["SHARESHEET_NEARBY": "off"])
            #expect(result.status == 0, "\(result)")
            #expect(daemon.receivedFiles() == ["a b;c.png", "data.bin", "notes.txt"], "\(daemon.process.output)")
            for file in files {
                #expect(filesAreIdentical(file, daemon.downloads.appendingPathComponent(file.lastPathComponent)), "\(file.lastPathComponent)")
            }
        }
    }

    @Test("a device whose certificate is not the one it announced gets nothing")
    func pinnedFingerprint() throws {
        try withPeer { pair, daemon, folder in
            // An impostor announcement: localsendd's address and port, another fingerprint.
            let impostor = String(repeating: "AB", count: 32)
            let announce = """
                import json, socket
                s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 1)
                msg = json.dumps({"alias": "Impostor", "version": "2.1", "deviceModel": "Linux", "deviceType": "desktop",
                    "fingerprint": "\(impostor)", "port": 53317, "protocol": "https", "download": False, "announce": False})
                import time
                for _ in range(40):
                    s.sendto(msg.encode(), ("224.0.0.167", 53317))
                    time.sleep(0.25)
                """
            let announcer = try NamespacedProcess(
                namespace: pair.theirs, command: [LocalSendPeer.python, "-c", announce], environment: TemporaryHome.environment(home: folder),
                log: folder.appendingPathComponent("announcer.log"))
            defer { announcer.stop() }
            let file = folder.appendingPathComponent("secret.txt")
            try Data("for the right device only".utf8).write(to: file)
            let result = try share(["--activity", "airdrop", "--to", "Impostor", file.path], in: pair, folder: folder)
            #expect(result.status == 69, "\(result)")
            #expect(result.standardError.contains("not the one it announced"), "\(result)")
            #expect(daemon.receivedFiles().isEmpty)
            #expect(try outbox(in: pair, folder: folder) == "[]")
            // The same file to the same address under the fingerprint the certificate really has.
            let good = try share(["--activity", "airdrop", "--to", daemon.fingerprint, file.path], in: pair, folder: folder)
            #expect(good.status == 0, "\(good)")
            #expect(daemon.receivedFiles() == ["secret.txt"])
        }
    }

    @Test("a receiver that declines ends the share with completed = false")
    func declined() throws {
        // With no control client attached and not unattended, localsendd declines (403).
        try withPeer(unattended: false) { pair, daemon, folder in
            let file = folder.appendingPathComponent("photo.jpg")
            try writeRandomFile(file, size: 4096)
            let result = try share(
                ["--activity", "airdrop", "--json", "--to", "\(pair.theirAddress)", file.path], in: pair, folder: folder)
            #expect(result.status == 1, "\(result)")
            #expect(result.standardOutput.contains("\"completed\":false"), "\(result)")
            #expect(result.standardOutput.contains("\"disposition\":\"failed\""), "\(result)")
            #expect(result.standardError.contains("AirDrop did not complete"), "\(result)")
            #expect(daemon.receivedFiles().isEmpty)
            #expect(try outbox(in: pair, folder: folder) == "[]")
        }
    }

    @Test("a receiver's PIN is asked for, and only the right one is accepted")
    func pin() throws {
        try withPeer(pin: "4711") { pair, daemon, folder in
            let file = folder.appendingPathComponent("report.pdf")
            try writeRandomFile(file, size: 10_000)
            let missing = try share(["--activity", "airdrop", "--to", daemon.alias, file.path], in: pair, folder: folder)
            #expect(missing.status == 64, "\(missing)")
            #expect(missing.standardError.contains("asks for a PIN"), "\(missing)")
            let wrong = try share(["--activity", "airdrop", "--to", daemon.alias, "--set", "pin=1234", file.path], in: pair, folder: folder)
            #expect(wrong.status == 64, "\(wrong)")
            #expect(wrong.standardError.contains("did not accept the PIN"), "\(wrong)")
            #expect(daemon.receivedFiles().isEmpty)
            #expect(try outbox(in: pair, folder: folder) == "[]")
            let right = try share(["--activity", "airdrop", "--to", daemon.alias, "--set", "pin=4711", file.path], in: pair, folder: folder)
            #expect(right.status == 0, "\(right)")
            #expect(daemon.receivedFiles() == ["report.pdf"])
        }
    }

    @Test("with discovery switched off a name is not looked for, an address still works")
    func discoveryOff() throws {
        try withPeer { pair, daemon, folder in
            let config = folder.appendingPathComponent("us/config/sharesheet")
            try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
            try "[nearby]\nenabled=false\n".write(to: config.appendingPathComponent("config"), atomically: true, encoding: .utf8)
            let byName = try share(["--activity", "airdrop", "--to", daemon.alias, "--text", "hi"], in: pair, folder: folder)
            #expect(byName.status == 69, "\(byName)")
            #expect(byName.standardError.contains("discovery is switched off"), "\(byName)")
            // A name can never be found with discovery off: failing says so, waiting would not help.
            #expect(try outbox(in: pair, folder: folder) == "[]")
            let byAddress = try share(["--activity", "airdrop", "--to", pair.theirAddress, "--text", "hi"], in: pair, folder: folder)
            #expect(byAddress.status == 0, "\(byAddress)")
        }
    }
}
