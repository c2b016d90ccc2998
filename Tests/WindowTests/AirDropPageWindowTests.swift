// A designed sheet, not a generated form (issue #25): AirDrop's own page in the window. Our
// `share` runs in a network namespace the test makes, so the only LocalSend devices it can meet
// are the receivers the test starts in the namespace across the link (localsendd).
import Foundation
import LocalTestSupport
import Testing

@Suite("AirDrop's page in the window", .serialized)
struct AirDropPageWindowTests {
    /// A short search keeps the tests fast; the bound below is relative to it.
    private static let discoveryTimeout = 3.0

    /// Starts `share FILE` in our namespace of `pair`, with `configuration` in the home's config.
    private func start(_ desk: WindowDesk, _ pair: NetworkPair, file: URL, configuration: String) throws -> RunningWindow {
        try desk.configure(configuration)
        let started = try Share.start([file.path], home: desk.home, extra: desk.session.environment, namespace: pair.ours)
        return RunningWindow(started: started, driver: AccessibilityDriver(session: desk.session, pid: started.pid))
    }

    /// Every name and text the window shows now.
    private func shownWords(_ window: RunningWindow) async throws -> [String] {
        let nodes = try JSONSerialization.jsonObject(with: Data(try await window.driver.dump().utf8)) as? [[String: Any]] ?? []
        return nodes.flatMap { node in [node["name"], node["text"], node["description"]].compactMap { $0 as? String } }
    }

    @Test("with no receiver: searching, then 'No devices found' within the discovery timeout plus 2 s, Retry searches again, Back returns to the sheet, Cancel ends the share")
    func noDevicesFound() async throws {
        try await WindowDesk.with { desk in
            let pair = try NetworkPair()
            defer { pair.remove() }
            let file = try desk.home.file("notes.txt", Data("Meet at six.\n".utf8))
            let window = try start(desk, pair, file: file, configuration: "[nearby]\ndiscovery-timeout=\(Int(Self.discoveryTimeout))\n")
            try await window.driver.click(name: "AirDrop", role: "push button")
            let picked = Date()
            try await window.driver.wait(name: "Looking for devices nearby…", role: "label")
            try await desk.saveScreenshot("airdrop-searching.png", of: window)
            // Not said before the search had its time.
            try await window.driver.waitGone(name: "No devices found", role: "label")
            try await window.driver.wait(name: "No devices found", role: "label")
            let waited = Date().timeIntervalSince(picked)
            #expect(waited >= Self.discoveryTimeout - 0.5, "said after \(waited) s")
            #expect(waited <= Self.discoveryTimeout + 2, "said after \(waited) s")
            try await window.driver.waitGone(name: "Looking for devices nearby…", role: "label")
            try await window.driver.wait(name: "Retry", role: "push button")
            try await window.driver.wait(name: "Device address", role: "text")
            try await window.driver.wait(name: "Back", role: "push button")
            try await window.driver.wait(name: "Cancel", role: "push button")
            try await desk.saveScreenshot("airdrop-no-devices.png", of: window)
            // Sentences and buttons, never options or config syntax.
            let words = try await shownWords(window)
            #expect(!words.contains { $0.contains("--") || $0.contains("[nearby]") || $0.contains("discovery-timeout") || $0.contains("=") }, "\(words)")

            try await window.driver.click(name: "Retry", role: "push button")
            try await window.driver.wait(name: "Looking for devices nearby…", role: "label")
            try await window.driver.waitGone(name: "No devices found", role: "label")
            try await window.driver.wait(name: "No devices found", role: "label")

            // Back: the sheet again, and AirDrop can be picked again.
            try await window.driver.click(name: "Back", role: "push button")
            try await window.driver.click(name: "AirDrop", role: "push button")
            try await window.driver.wait(name: "Looking for devices nearby…", role: "label")
            try await window.driver.click(name: "Cancel", role: "push button")
            let run = try await window.finish()
            #expect(run.status == 130, "share: \(run.standardError)")
        }
    }

    @Test("an address typed into the address entry, then Enter, sends the file to the receiver there")
    func sendToTypedAddress() async throws {
        try await WindowDesk.with { desk in
            let pair = try NetworkPair()
            defer { pair.remove() }
            let receiver = try LocalSendPeer(
                namespace: pair.theirs, home: desk.home.root.appendingPathComponent("peer", isDirectory: true), alias: "Desk Laptop")
            defer { receiver.stop() }
            let file = desk.home.root.appendingPathComponent("holiday.jpg")
            try writeRandomFile(file, size: 50_000)
            // Discovery on another port than the receiver's: it is not found, as on a network
            // that blocks multicast, and only its address reaches it.
            let window = try start(
                desk, pair, file: file,
                configuration: "[nearby]\ndiscovery-timeout=\(Int(Self.discoveryTimeout))\nmulticast-port=53391\n")
            try await window.driver.click(name: "AirDrop", role: "push button")
            try await window.driver.wait(name: "No devices found", role: "label")
            #expect(try await !shownWords(window).contains("Desk Laptop"))
            try await window.driver.fill(name: "Device address", text: pair.theirAddress, role: "text")
            try await window.driver.key("Return")
            let run = try await window.finish()
            #expect(run.status == 0, "share: \(run.standardError)")
            let received = receiver.downloads.appendingPathComponent("holiday.jpg")
            #expect(filesAreIdentical(file, received), "received: \(receiver.receivedFiles())")
        }
    }

    @Test("a receiver that discovery finds is listed with its name and kind; Enter on it sends the file")
    func pickDiscoveredDevice() async throws {
        try await WindowDesk.with { desk in
            let pair = try NetworkPair()
            defer { pair.remove() }
            let receiver = try LocalSendPeer(
                namespace: pair.theirs, home: desk.home.root.appendingPathComponent("peer", isDirectory: true), alias: "Desk Laptop")
            defer { receiver.stop() }
            let file = desk.home.root.appendingPathComponent("holiday.jpg")
            try writeRandomFile(file, size: 50_000)
            let window = try start(desk, pair, file: file, configuration: "[nearby]\ndiscovery-timeout=\(Int(Self.discoveryTimeout))\n")
            try await window.driver.click(name: "AirDrop", role: "push button")
            try await window.driver.wait(name: "Desk Laptop", role: "push button")
            try await window.driver.wait(name: "Devices", role: "label")
            // The device's kind is said under its name, in a word.
            let words = try await shownWords(window)
            #expect(words.contains { ["Computer", "Phone", "Server", "Web browser"].contains($0) }, "\(words)")
            // Once the search had its time, the list stays and nothing says no devices.
            try await Task.sleep(for: .seconds(Self.discoveryTimeout + 0.5))
            try await window.driver.waitGone(name: "No devices found", role: "label")
            try await desk.saveScreenshot("airdrop-devices.png", of: window)
            // The first device to answer takes the focus from the empty address entry: Enter
            // sends to it (a click does too: ActivityFormWindowTests).
            try await window.driver.key("Return")
            let run = try await window.finish()
            #expect(run.status == 0, "share: \(run.standardError)")
            let received = receiver.downloads.appendingPathComponent("holiday.jpg")
            #expect(filesAreIdentical(file, received), "received: \(receiver.receivedFiles())")
        }
    }
}
