// People and places first (issue #26) in the window: a LocalSend receiver that shows the alias of
// a device the person pinned, with another certificate, is listed in AirDrop's devices with why
// it is not that device, as text a person sees and an assistive technology reads.
import Foundation
import LocalTestSupport
import Testing

@Suite("A device showing a pinned name in the window", .serialized)
struct FlaggedDeviceWindowTests {
    @Test("AirDrop's device list shows the impostor as not the pinned device, in its text and its description")
    func impostorIsMarked() async throws {
        try await WindowDesk.with { desk in
            let pair = try NetworkPair()
            defer { pair.remove() }
            // "Desk Laptop" is pinned to a certificate the receiver below does not have.
            let store = desk.home.dataHome.appendingPathComponent("sharesheet/devices.json")
            try FileManager.default.createDirectory(at: store.deletingLastPathComponent(), withIntermediateDirectories: true)
            let pinned = String(repeating: "D4", count: 32)
            try Data(
                """
                {"version": 1, "devices": [{"fingerprint": "\(pinned)", "alias": "Desk Laptop", "deviceModel": null, \
                "deviceType": "desktop", "address": null, "protocol": "https", "lastSeen": null, "pinned": true}]}
                """.utf8
            ).write(to: store)
            let receiver = try LocalSendPeer(
                namespace: pair.theirs, home: desk.home.root.appendingPathComponent("peer", isDirectory: true), alias: "Desk Laptop")
            defer { receiver.stop() }
            let file = desk.home.root.appendingPathComponent("holiday.jpg")
            try writeRandomFile(file, size: 10_000)
            let started = try Share.start([file.path], home: desk.home, extra: desk.session.environment, namespace: pair.ours)
            let window = RunningWindow(started: started, driver: AccessibilityDriver(session: desk.session, pid: started.pid))
            try await window.driver.click(name: "AirDrop", role: "push button")
            try await window.driver.wait(name: "Desk Laptop", role: "push button")
            let dump = try await window.driver.dump()
            let nodes = try #require(JSONSerialization.jsonObject(with: Data(dump.utf8)) as? [[String: Any]], "\(dump.prefix(3000))")
            let button = try #require(
                nodes.first { $0["name"] as? String == "Desk Laptop" && $0["role"] as? String == "push button" }, "\(dump.suffix(3000))")
            let description = button["description"] as? String ?? ""
            #expect(description.hasPrefix("not your pinned Desk Laptop: another certificate"), "\(button)")
            // The words are shown on the device's row, under its name, not only in its tooltip.
            #expect(
                nodes.contains { node in
                    node["role"] as? String == "label"
                        && (node["text"] as? String ?? node["name"] as? String ?? "").hasPrefix("not your pinned Desk Laptop")
                },
                "\(dump)")
            try await window.driver.key("Escape")
            let run = try await window.finish()
            #expect(run.status == 130, "share: \(run.standardError)")
            #expect(receiver.receivedFiles().isEmpty)
        }
    }
}
