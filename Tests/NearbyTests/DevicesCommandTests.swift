// `share devices list|pin|forget` end to end on a store the test writes: what a person reads,
// what a script reads, and the one-line errors. No scan (`--scan 0`, or discovery off), so no
// network is needed; PinnedDeviceTests meets a real receiver.
import Foundation
import LocalTestSupport
import ShareSheetSystem
import Testing

@testable import Nearby

@Suite("share devices")
struct DevicesCommandTests {
    static let ana = String(repeating: "A1", count: 32)
    static let old = String(repeating: "B2", count: 32)
    static let desk = String(repeating: "C3", count: 32)

    /// A home whose store has Ana's pinned phone, an older phone with the same name, and a desk.
    private static func home() throws -> TemporaryHome {
        let home = try TemporaryHome(prefix: "devices-command")
        try FileManager.default.createDirectory(at: home.configFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "[nearby]\nenabled=false\n".write(to: home.configFile, atomically: true, encoding: .utf8)
        let store = KnownDevices(devices: [
            .init(
                fingerprint: ana, alias: "Ana's Pixel", deviceModel: "Pixel 7", deviceType: "mobile", address: "10.0.0.2:53317",
                protocol: "https", lastSeen: Date(timeIntervalSince1970: 1_800_000_000), pinned: true),
            .init(
                fingerprint: old, alias: "Ana's Pixel", deviceModel: nil, deviceType: "mobile", address: "10.0.0.3:53317",
                protocol: "https", lastSeen: Date(timeIntervalSince1970: 1_700_000_000)),
            .init(
                fingerprint: desk, alias: "Desk", deviceModel: "Linux", deviceType: "desktop", address: "10.0.0.9:53317", protocol: "http",
                lastSeen: Date(timeIntervalSince1970: 1_800_000_100)),
        ])
        try KnownDevicesFile(KnownDevices.file(in: XDGDirectories(environment: home.environment))).withLock(creating: true) {
            try $0.write(store)
        }
        return home
    }

    @Test("the list: pinned first, then the most recently seen; a device showing the pinned alias with another certificate is flagged")
    func list() async throws {
        let home = try Self.home()
        defer { home.remove() }
        let json = try await Share.run(["devices", "--json", "--scan", "0"], home: home)
        #expect(json.status == 0, "\(json.standardError)")
        let rows = try #require(JSONSerialization.jsonObject(with: json.output) as? [[String: Any]], "\(json.standardOutput)")
        #expect(rows.map { $0["fingerprint"] as? String } == [Self.ana, Self.desk, Self.old])
        #expect(rows.map { $0["flagged"] as? Bool } == [false, false, true])
        #expect(rows.map { $0["pinnedFingerprint"] as? String } == [nil, nil, Self.ana])
        #expect(rows[1]["deviceModel"] as? String == "Linux" && rows[2]["deviceModel"] is NSNull)
        #expect(rows.allSatisfy { $0["visible"] is NSNull && $0["known"] as? Bool == true })
        #expect(rows[0]["lastSeen"] as? String == "2027-01-15T08:00:00Z")

        let words = try await Share.run(["devices"], home: home)
        #expect(words.status == 0 && words.standardError.isEmpty, "\(words.standardError)")
        let lines = words.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(words.standardOutput)")
        #expect(lines[0].hasPrefix("Ana's Pixel  pinned  Pixel 7, mobile  10.0.0.2:53317  seen "), "\(lines[0])")
        #expect(lines[0].hasSuffix("  fingerprint \(Self.ana)"))
        #expect(lines[2].hasPrefix("Ana's Pixel  FLAGGED: not your pinned Ana's Pixel, another certificate  mobile  10.0.0.3:53317"), "\(lines[2])")
        #expect(!words.standardOutput.contains("nearby now"), "nothing was scanned")
    }

    @Test("pin and forget say what they did; an alias two devices have is one line naming both; an unknown name is 66")
    func pinAndForget() async throws {
        let home = try Self.home()
        defer { home.remove() }
        let ambiguous = try await Share.run(["devices", "forget", "ana's pixel"], home: home)
        #expect(ambiguous.status == 64, "\(ambiguous.standardError)")
        #expect(ambiguous.standardError.split(separator: "\n").count == 1, "\(ambiguous.standardError)")
        #expect(ambiguous.standardError.contains("devices forget: 'ana's pixel' names 2 devices: "), "\(ambiguous.standardError)")
        #expect(ambiguous.standardError.contains(Self.ana) && ambiguous.standardError.contains(Self.old))

        let forgot = try await Share.run(["devices", "forget", String(Self.old.prefix(10))], home: home)
        #expect(forgot.status == 0, "\(forgot.standardError)")
        #expect(forgot.standardOutput == "forgot Ana's Pixel (fingerprint \(Self.old))\n")
        let pinned = try await Share.run(["devices", "pin", "Desk"], home: home)
        #expect(pinned.status == 0, "\(pinned.standardError)")
        #expect(pinned.standardOutput == "pinned Desk (fingerprint \(Self.desk))\n")
        let store = KnownDevices.load(directories: XDGDirectories(environment: home.environment))
        #expect(store.pinned.map(\.fingerprint) == [Self.desk, Self.ana])
        #expect(store.devices.count == 2)

        // Discovery is off: nothing nearby to pin either.
        let unknown = try await Share.run(["devices", "pin", "Bo's Phone"], home: home)
        #expect(unknown.status == 66, "\(unknown.standardError)")
        #expect(unknown.standardError.contains("devices pin: no device 'Bo's Phone' is known"), "\(unknown.standardError)")
        let usage = try await Share.run(["devices", "forget"], home: home)
        #expect(usage.status == 64, "\(usage.standardError)")
        let scan = try await Share.run(["devices", "--scan", "soon"], home: home)
        #expect(scan.status == 64 && scan.standardError.contains("--scan needs a number of seconds"), "\(scan.standardError)")
    }

    @Test("a damaged store is said once on standard error and set aside; the list is then empty")
    func damaged() async throws {
        let home = try Self.home()
        defer { home.remove() }
        let file = KnownDevices.file(in: XDGDirectories(environment: home.environment))
        try Data("{\"version\": 1, \"devices\": [".utf8).write(to: file)
        let first = try await Share.run(["devices", "--scan", "0"], home: home)
        #expect(first.status == 0)
        #expect(first.standardError.split(separator: "\n").count == 1, "\(first.standardError)")
        #expect(first.standardError.contains("is not a devices file (not JSON); set it aside as devices.json.corrupt-"))
        #expect(first.standardOutput == "No devices known.\n")
        let second = try await Share.run(["devices", "--scan", "0"], home: home)
        #expect(second.standardError.isEmpty, "\(second.standardError)")
    }
}
