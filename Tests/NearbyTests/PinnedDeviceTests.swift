// People and places first (issue #26): a LocalSend receiver (localsendd) in a test namespace is
// sent one photo, so it is known; pinned; then restarted with another certificate under the same
// alias. `share devices list` flags it, an AirDrop by that alias does not go to it, and the
// store says it is an impostor. Our `share` runs in the other namespace of the pair.
import Foundation
import LocalTestSupport
import ShareSheetSystem
import Testing

@testable import Nearby

@Suite("A pinned device is trusted by its certificate", .serialized, .enabled(if: getuid() == 0, "network namespaces need root"))
struct PinnedDeviceTests {
    static let alias = "Ana's Pixel"

    /// A home whose configuration looks for a device named by alias for 2 s.
    private static func home(_ prefix: String) throws -> TemporaryHome {
        let home = try TemporaryHome(prefix: prefix)
        try FileManager.default.createDirectory(at: home.configFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "[nearby]\ndiscovery-timeout=2\n".write(to: home.configFile, atomically: true, encoding: .utf8)
        return home
    }

    private static func share(_ arguments: [String], home: TemporaryHome, pair: NetworkPair) async throws -> Share.Run {
        try await Share.finish(Share.start(arguments, home: home, namespace: pair.ours), timeout: 120)
    }

    /// `share devices list --json --scan SECONDS`, decoded.
    /// The suggestions `share --list --json` gives for `item`.
    private static func suggestions(for item: URL, home: TemporaryHome, pair: NetworkPair) async throws -> [[String: Any]] {
        let run = try await share(["--list", "--json", item.path], home: home, pair: pair)
        let listing = try #require(JSONSerialization.jsonObject(with: run.output) as? [String: Any], "\(run.standardOutput)")
        return try #require(listing["suggestions"] as? [[String: Any]], "\(listing)")
    }

    private static func devices(_ home: TemporaryHome, pair: NetworkPair, scan: Int) async throws -> [[String: Any]] {
        let run = try await share(["devices", "list", "--json", "--scan", "\(scan)"], home: home, pair: pair)
        #expect(run.status == 0, "\(run.standardError)")
        return try #require(JSONSerialization.jsonObject(with: run.output) as? [[String: Any]], "\(run.standardOutput)")
    }

    /// The keys every row of `share devices list --json` has, null when empty.
    static let rowKeys: Set<String> = [
        "alias", "fingerprint", "deviceModel", "deviceType", "address", "protocol", "lastSeen", "pinned", "known", "visible",
        "flagged", "pinnedFingerprint",
    ]

    @Test("sent to once, it is known and named in the history; pinned, then back with another certificate under its alias: flagged, not sent to, an impostor")
    func impostorAfterPin() async throws {
        let home = try Self.home("pinned-device")
        defer { home.remove() }
        let pair = try NetworkPair()
        defer { pair.remove() }
        let photo = home.root.appendingPathComponent("photo.png")
        try writeRandomFile(photo, size: 40_000, seed: 5)
        let handle = try FileHandle(forWritingTo: photo)
        try handle.write(contentsOf: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        try handle.close()

        // One AirDrop by alias to the real device.
        let real = try LocalSendPeer(namespace: pair.theirs, home: home.root.appendingPathComponent("real", isDirectory: true), alias: Self.alias)
        let sent = try await Self.share(["--activity", "airdrop", "--to", Self.alias, photo.path], home: home, pair: pair)
        #expect(sent.status == 0, "\(sent.standardError)")
        #expect(real.receivedFiles() == ["photo.png"], "\(real.receivedFiles())")

        let known = try await Self.devices(home, pair: pair, scan: 0)
        #expect(known.count == 1, "\(known)")
        let row = try #require(known.first)
        #expect(Set(row.keys) == Self.rowKeys, "\(row.keys.sorted())")
        #expect(row["alias"] as? String == Self.alias)
        #expect(row["fingerprint"] as? String == real.fingerprint)
        #expect(row["address"] as? String == "\(pair.theirAddress):53317")
        #expect(row["protocol"] as? String == "https")
        #expect(row["pinned"] as? Bool == false && row["known"] as? Bool == true && row["flagged"] as? Bool == false)
        #expect(row["visible"] is NSNull, "no scan was made: visible is unknown")
        #expect(row["pinnedFingerprint"] is NSNull)

        // Suggested for images from then on: AirDrop to that certificate, under its alias.
        let suggested = try await Self.suggestions(for: photo, home: home, pair: pair)
        let device = try #require(suggested.first { $0["activity"] as? String == "airdrop" }, "\(suggested)")
        #expect(device["title"] as? String == Self.alias)
        #expect(device["presets"] as? [String: String] == ["to": real.fingerprint, "fingerprint": real.fingerprint], "\(device)")

        // The history names the device by its fingerprint and the alias it showed.
        let history = try await Self.share(["history", "--json"], home: home, pair: pair)
        let entries = try #require(JSONSerialization.jsonObject(with: history.output) as? [[String: Any]], "\(history.standardOutput)")
        let targets = try #require(entries.first?["targets"] as? [[String: Any]], "\(entries)")
        #expect(targets.count == 1)
        #expect(targets.first?["kind"] as? String == "device")
        #expect(targets.first?["value"] as? String == real.fingerprint)
        #expect(targets.first?["name"] as? String == Self.alias)

        // Sent again by fingerprint, as a device picked in the sheet or a suggestion is: the
        // history names it by the alias it showed, not by the fingerprint twice.
        let byFingerprint = try await Self.share(
            ["--activity", "airdrop", "--to", real.fingerprint, "--set", "fingerprint=\(real.fingerprint)", "--text", "hi"], home: home,
            pair: pair)
        #expect(byFingerprint.status == 0, "\(byFingerprint.standardError)")
        let again = try await Self.share(["history", "--json"], home: home, pair: pair)
        let newest = try #require(JSONSerialization.jsonObject(with: again.output) as? [[String: Any]], "\(again.standardOutput)")
        #expect(newest.count == 2)
        let picked = try #require(newest.first?["targets"] as? [[String: Any]], "\(newest)")
        #expect(picked.first?["value"] as? String == real.fingerprint)
        #expect(picked.first?["name"] as? String == Self.alias, "\(picked)")

        let pinned = try await Self.share(["devices", "pin", Self.alias], home: home, pair: pair)
        #expect(pinned.status == 0, "\(pinned.standardError)")
        #expect(pinned.standardOutput == "pinned \(Self.alias) (fingerprint \(real.fingerprint))\n")
        real.stop()

        // The same alias, another certificate.
        let impostor = try LocalSendPeer(
            namespace: pair.theirs, home: home.root.appendingPathComponent("impostor", isDirectory: true), alias: Self.alias)
        defer { impostor.stop() }
        #expect(impostor.fingerprint != real.fingerprint, "localsendd kept its certificate")

        let listed = try await Self.devices(home, pair: pair, scan: 3)
        #expect(listed.count == 2, "\(listed)")
        let first = try #require(listed.first)
        let second = try #require(listed.last)
        #expect(first["fingerprint"] as? String == real.fingerprint && first["pinned"] as? Bool == true, "pinned first: \(listed)")
        #expect(first["visible"] as? Bool == false && first["flagged"] as? Bool == false)
        #expect(second["fingerprint"] as? String == impostor.fingerprint)
        #expect(second["alias"] as? String == Self.alias)
        #expect(second["flagged"] as? Bool == true)
        #expect(second["pinnedFingerprint"] as? String == real.fingerprint)
        #expect(second["visible"] as? Bool == true && second["known"] as? Bool == false && second["pinned"] as? Bool == false)
        #expect(listed.allSatisfy { Set($0.keys) == Self.rowKeys })

        let words = try await Self.share(["devices", "--scan", "3"], home: home, pair: pair)
        #expect(words.status == 0, "\(words.standardError)")
        let lines = words.standardOutput.split(separator: "\n")
        #expect(lines.count == 2, "\(words.standardOutput)")
        #expect(lines.first?.hasPrefix("\(Self.alias)  pinned  ") == true, "\(words.standardOutput)")
        #expect(
            lines.last?.hasPrefix("\(Self.alias)  FLAGGED: not your pinned \(Self.alias), another certificate  nearby now  ") == true,
            "\(words.standardOutput)")

        // An AirDrop by the alias does not go to it: it fails at once, saying why, and is not queued.
        let refused = try await Self.share(["--activity", "airdrop", "--to", Self.alias, photo.path], home: home, pair: pair)
        #expect(refused.status == 69, "\(refused.status): \(refused.standardError)")
        #expect(
            refused.standardError.contains(
                "the device showing \(Self.alias) at \(pair.theirAddress) is not your pinned \(Self.alias): it has another certificate"),
            "\(refused.standardError)")
        #expect(refused.standardError.split(separator: "\n").count == 1, "\(refused.standardError)")
        try await Task.sleep(for: .seconds(1))
        #expect(impostor.receivedFiles().isEmpty, "the impostor got \(impostor.receivedFiles())")
        let outbox = try await Self.share(["outbox", "list", "--json"], home: home, pair: pair)
        #expect(outbox.standardOutput == "[]\n", "\(outbox.standardOutput)")

        // Suggested still: the pinned device, never the one showing its alias now.
        let afterwards = try await Self.suggestions(for: photo, home: home, pair: pair)
        let devices = afterwards.filter { $0["activity"] as? String == "airdrop" }
        #expect(devices.map { $0["presets"] as? [String: String] } == [["to": real.fingerprint, "fingerprint": real.fingerprint]], "\(afterwards)")
        #expect(!afterwards.contains { ($0["presets"] as? [String: String])?.values.contains(impostor.fingerprint) == true })

        let store = KnownDevices.load(directories: XDGDirectories(environment: home.environment))
        #expect(store.isImpostor(alias: Self.alias, fingerprint: impostor.fingerprint))
        #expect(!store.isImpostor(alias: Self.alias, fingerprint: real.fingerprint))
        #expect(store.pinned.map(\.fingerprint) == [real.fingerprint])
        #expect(store.devices.count == 1, "the impostor was noted: \(store.devices)")
    }

    @Test("an AirDrop queued while its device was away and sent by share outbox flush notes the device too")
    func queuedSendNotesTheDevice() async throws {
        let home = try Self.home("pinned-queued")
        defer { home.remove() }
        let pair = try NetworkPair()
        defer { pair.remove() }
        let notes = home.root.appendingPathComponent("notes.txt")
        try Data("for Ana\n".utf8).write(to: notes)
        let queued = try await Self.share(["--activity", "airdrop", "--to", Self.alias, notes.path], home: home, pair: pair)
        #expect(queued.status == 75, "\(queued.standardError)")
        #expect(KnownDevices.load(directories: XDGDirectories(environment: home.environment)).devices.isEmpty, "noted before it went")

        let receiver = try LocalSendPeer(
            namespace: pair.theirs, home: home.root.appendingPathComponent("peer", isDirectory: true), alias: Self.alias)
        defer { receiver.stop() }
        let flush = try await Self.share(["outbox", "flush"], home: home, pair: pair)
        #expect(flush.status == 0, "\(flush.standardError)")
        #expect(receiver.receivedFiles() == ["notes.txt"])
        let store = KnownDevices.load(directories: XDGDirectories(environment: home.environment))
        #expect(store.devices.map(\.fingerprint) == [receiver.fingerprint])
        #expect(store.alias(of: receiver.fingerprint) == Self.alias)
        #expect(store.device(fingerprint: receiver.fingerprint)?.address == "\(pair.theirAddress):53317")
    }

    @Test("a pinned device that is not nearby, with nothing else showing its alias: the share waits for its fingerprint")
    func pinnedAndAwayIsQueued() async throws {
        let home = try Self.home("pinned-away")
        defer { home.remove() }
        let pair = try NetworkPair()
        defer { pair.remove() }
        let notes = home.root.appendingPathComponent("notes.txt")
        try Data("for Ana\n".utf8).write(to: notes)
        let fingerprint = String(repeating: "D4", count: 32)
        let file = KnownDevices.file(in: XDGDirectories(environment: home.environment))
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(
            """
            {"version": 1, "devices": [{"fingerprint": "\(fingerprint)", "alias": "\(Self.alias)", "deviceModel": null, \
            "deviceType": null, "address": null, "protocol": null, "lastSeen": null, "pinned": true}]}
            """.utf8
        ).write(to: file)

        let queued = try await Self.share(["--activity", "airdrop", "--to", Self.alias, notes.path], home: home, pair: pair)
        #expect(queued.status == 75, "\(queued.standardError)")
        let outbox = try await Self.share(["outbox", "list", "--json"], home: home, pair: pair)
        let entries = try #require(JSONSerialization.jsonObject(with: outbox.output) as? [[String: Any]], "\(outbox.standardOutput)")
        #expect(entries.count == 1)
        let entry = try #require(ShareQueue(directories: XDGDirectories(environment: home.environment)).entries().first)
        #expect(entry.share.parameters["fingerprint"] == fingerprint, "\(entry.share.parameters)")
    }
}
