// The known devices' store (`$XDG_DATA_HOME/sharesheet/devices.json`): what an AirDrop notes,
// what pin and forget change, how a damaged file is met, and the impostor check the sheet and
// the suggestions rely on.
import Foundation
import LocalTestSupport
import ShareSheet
import ShareSheetSystem
import Testing

@testable import Nearby

@Suite("Known devices")
struct KnownDevicesTests {
    static let ana = String(repeating: "A1", count: 32)
    static let other = String(repeating: "B2", count: 32)
    static let desk = String(repeating: "C3", count: 32)

    /// A home of its own, and its folders.
    private static func home() throws -> (TemporaryFolder, XDGDirectories) {
        let folder = try TemporaryFolder("known-devices")
        let directories = XDGDirectories(environment: ["HOME": folder.path, "XDG_DATA_HOME": folder.file("data").path])
        return (folder, directories)
    }

    private static func device(_ alias: String, _ fingerprint: String, host: String = "10.0.0.2", type: String = "mobile") -> NearbyDevice {
        NearbyDevice(
            info: DeviceInfo(alias: alias, deviceModel: "Pixel 7", deviceType: type, fingerprint: fingerprint, port: 53317, protocol: "https"),
            host: host)
    }

    @Test("a device sent to is kept by fingerprint with its alias, model, type, address, protocol and time; noting it again updates it and keeps its pin")
    func noting() throws {
        let (folder, directories) = try Self.home()
        defer { folder.remove() }
        #expect(KnownDevices.load(directories: directories).devices.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: directories.shareSheetData.path), "reading made a folder")

        let first = Date(timeIntervalSince1970: 1_800_000_000)
        try KnownDevices.note(Self.device("Ana's Pixel", Self.ana), directories: directories, at: first)
        let noted = try #require(KnownDevices.load(directories: directories).device(fingerprint: Self.ana.lowercased()))
        #expect(
            noted
                == KnownDevices.Device(
                    fingerprint: Self.ana, alias: "Ana's Pixel", deviceModel: "Pixel 7", deviceType: "mobile", address: "10.0.0.2:53317",
                    protocol: "https", lastSeen: first, pinned: false))

        _ = try KnownDevices.pin(Self.ana, directories: directories)
        let later = first.addingTimeInterval(60)
        try KnownDevices.note(Self.device("Ana's New Pixel", Self.ana, host: "fe80::7"), directories: directories, at: later)
        let store = KnownDevices.load(directories: directories)
        #expect(store.devices.count == 1)
        #expect(store.alias(of: Self.ana) == "Ana's New Pixel")
        #expect(store.device(fingerprint: Self.ana)?.address == "[fe80::7]:53317")
        #expect(store.device(fingerprint: Self.ana)?.lastSeen == later)
        #expect(store.device(fingerprint: Self.ana)?.pinned == true, "noting a device dropped its pin")
        #expect(store.alias(of: Self.other) == nil)
    }

    @Test("the file is replaced whole, private to the person, with every key of every device and no temporary file left")
    func atomicFile() throws {
        let (folder, directories) = try Self.home()
        defer { folder.remove() }
        try KnownDevices.note(Self.device("Desk", Self.desk, type: "desktop"), directories: directories)
        try KnownDevices.note(Self.device("Ana's Pixel", Self.ana), directories: directories)
        let file = KnownDevices.file(in: directories)
        #expect(file.path == directories.dataHome.path + "/sharesheet/devices.json")
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let entries = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path).sorted()
        #expect(entries == [".devices.json.lock", "devices.json"], "\(entries)")
        let object = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        #expect(object["version"] as? Int == 1)
        let devices = try #require(object["devices"] as? [[String: Any]])
        #expect(devices.count == 2)
        for device in devices {
            #expect(
                Set(device.keys) == ["fingerprint", "alias", "deviceModel", "deviceType", "address", "protocol", "lastSeen", "pinned"],
                "\(device)")
        }
    }

    @Test("devices noted at once from many threads are all kept: each change reads and writes under the lock")
    func concurrentNotes() async throws {
        let (folder, directories) = try Self.home()
        defer { folder.remove() }
        let count = 24
        let fingerprints = (0..<count).map { String(format: "%064X", $0 + 1) }
        await withTaskGroup(of: Void.self) { group in
            for (index, fingerprint) in fingerprints.enumerated() {
                group.addTask {
                    _ = try? KnownDevices.note(Self.device("Phone \(index)", fingerprint), directories: directories)
                }
            }
        }
        let store = KnownDevices.load(directories: directories)
        #expect(store.warnings.isEmpty)
        #expect(Set(store.devices.map(\.fingerprint)) == Set(fingerprints))
    }

    @Test("a damaged file is set aside with one warning and a new list starts; the next read says nothing")
    func damagedFile() throws {
        let (folder, directories) = try Self.home()
        defer { folder.remove() }
        let file = KnownDevices.file(in: directories)
        for damaged in ["{\"devices\": [", "[1, 2, 3]", "{\"version\": 1, \"devices\": [{\"alias\": \"no fingerprint\", \"pinned\": false}]}"] {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(damaged.utf8).write(to: file)
            let store = KnownDevices.load(directories: directories)
            #expect(store.devices.isEmpty)
            #expect(store.warnings.count == 1, "\(damaged): \(store.warnings)")
            #expect(store.warnings.first?.contains("is not a devices file") == true, "\(store.warnings)")
            #expect(store.warnings.first?.contains("set it aside as devices.json.corrupt-") == true, "\(store.warnings)")
            #expect(KnownDevices.load(directories: directories).warnings.isEmpty, "the warning came twice")
            #expect(!FileManager.default.fileExists(atPath: file.path))
        }
        let aside = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
            .filter { $0.hasPrefix("devices.json.corrupt-") }
        #expect(aside.count == 3, "\(aside)")

        // A change meets a damaged file the same way, and writes a good one.
        try Data("not json".utf8).write(to: file)
        let warnings = try KnownDevices.note(Self.device("Ana's Pixel", Self.ana), directories: directories)
        #expect(warnings.count == 1, "\(warnings)")
        let store = KnownDevices.load(directories: directories)
        #expect(store.warnings.isEmpty && store.devices.map(\.fingerprint) == [Self.ana])
    }

    @Test("pin and forget by alias (any case), by fingerprint, or by its first 8 or more digits; an unknown name is an error")
    func pinAndForget() throws {
        let (folder, directories) = try Self.home()
        defer { folder.remove() }
        try KnownDevices.note(Self.device("Ana's Pixel", Self.ana), directories: directories)
        try KnownDevices.note(Self.device("Desk", Self.desk, type: "desktop"), directories: directories)

        #expect(try KnownDevices.pin("ana's pixel", directories: directories).device.fingerprint == Self.ana)
        #expect(try KnownDevices.pin(String(Self.desk.prefix(8)).lowercased(), directories: directories).device.alias == "Desk")
        var store = KnownDevices.load(directories: directories)
        #expect(Set(store.pinned.map(\.fingerprint)) == [Self.ana, Self.desk])

        #expect(try KnownDevices.forget("Desk", directories: directories).device.fingerprint == Self.desk)
        #expect(try KnownDevices.forget(Self.ana, directories: directories).device.alias == "Ana's Pixel")
        store = KnownDevices.load(directories: directories)
        #expect(store.devices.isEmpty)

        let unknown = #expect(throws: ShareError.self) { try KnownDevices.forget("Bo's Phone", directories: directories) }
        #expect(unknown?.kind == .noInput)
        #expect(unknown?.message == "no device 'Bo's Phone' is known", "\(unknown?.message ?? "")")
        // Too short to be taken for a fingerprint: a name.
        try KnownDevices.note(Self.device("Desk", Self.desk), directories: directories)
        #expect(throws: ShareError.self) { try KnownDevices.pin(String(Self.desk.prefix(6)), directories: directories) }
    }

    @Test("an alias two devices have is an error naming both; the fingerprint picks one")
    func ambiguousAlias() throws {
        let (folder, directories) = try Self.home()
        defer { folder.remove() }
        try KnownDevices.note(Self.device("Ana's Pixel", Self.ana), directories: directories)
        try KnownDevices.note(Self.device("Ana's Pixel", Self.other, host: "10.0.0.3"), directories: directories)
        for action in ["pin", "forget"] {
            let error = #expect(throws: ShareError.self) {
                if action == "pin" {
                    _ = try KnownDevices.pin("Ana's Pixel", directories: directories)
                } else {
                    _ = try KnownDevices.forget("Ana's Pixel", directories: directories)
                }
            }
            #expect(error?.kind == .usage)
            let message = error?.message ?? ""
            #expect(message.hasPrefix("'Ana's Pixel' names 2 devices: "), "\(action): \(message)")
            #expect(message.contains(Self.ana) && message.contains(Self.other), "\(message)")
            #expect(!message.contains("\n"))
        }
        #expect(KnownDevices.load(directories: directories).pinned.isEmpty, "an ambiguous pin pinned something")
        #expect(try KnownDevices.pin(Self.other, directories: directories).device.fingerprint == Self.other)
    }

    @Test("a device never sent to can be pinned while nearby; it is then known, the rest nearby is not")
    func pinNearby() throws {
        let (folder, directories) = try Self.home()
        defer { folder.remove() }
        let nearby = [Self.device("Ana's Pixel", Self.ana), Self.device("Desk", Self.desk, host: "10.0.0.9")]
        let change = try KnownDevices.pin("Ana's Pixel", directories: directories, nearby: nearby)
        #expect(change.device.pinned && change.device.address == "10.0.0.2:53317")
        let store = KnownDevices.load(directories: directories)
        #expect(store.devices.map(\.fingerprint) == [Self.ana])
        #expect(store.devices.first?.pinned == true)
    }

    @Test("an impostor shows a pinned alias (any case) with another fingerprint; unpinned aliases have none")
    func impostors() {
        let store = KnownDevices(devices: [
            .init(fingerprint: Self.ana, alias: "Ana's Pixel", pinned: true),
            .init(fingerprint: Self.desk, alias: "Desk", pinned: false),
        ])
        #expect(store.isImpostor(alias: "Ana's Pixel", fingerprint: Self.other))
        #expect(store.isImpostor(alias: " ana's pixel", fingerprint: Self.other))
        #expect(!store.isImpostor(alias: "Ana's Pixel", fingerprint: Self.ana.lowercased()))
        #expect(!store.isImpostor(alias: "Desk", fingerprint: Self.other), "an unpinned alias means no certificate")
        #expect(!store.isImpostor(alias: "Bo's Phone", fingerprint: Self.other))
        #expect(store.pinned.map(\.fingerprint) == [Self.ana])
        #expect(store.pinned(alias: "ANA'S PIXEL").map(\.fingerprint) == [Self.ana])
        #expect(store.devices.map(\.fingerprint) == [Self.ana, Self.desk], "pinned first")
    }

    @Test("in the sheet's device list an impostor says it is not the pinned device, with a warning icon; the pinned one says pinned")
    @MainActor
    func sheetFlags() {
        let store = KnownDevices(devices: [.init(fingerprint: Self.ana, alias: "Ana's Pixel", pinned: true)])
        let impostor = AirDropActivity.option(for: Self.device("Ana's Pixel", Self.other, host: "10.0.0.66"), known: store)
        #expect(impostor.id == Self.other)
        #expect(impostor.detail == "not your pinned Ana's Pixel: another certificate · 10.0.0.66")
        #expect(impostor.iconName == "dialog-warning" && impostor.isWarning)
        let pinned = AirDropActivity.option(for: Self.device("Ana's Pixel", Self.ana), known: store)
        #expect(pinned.detail == "pinned · Pixel 7 · mobile · 10.0.0.2")
        #expect(pinned.iconName == "phone" && !pinned.isWarning)
        let stranger = AirDropActivity.option(for: Self.device("Desk", Self.desk, type: "desktop"), known: store)
        #expect(stranger.detail == "Pixel 7 · desktop · 10.0.0.2" && stranger.iconName == "computer")
    }
}
