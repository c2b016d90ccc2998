// The share session behind the service (SPEC §11): a receiver's PIN is asked in the service's
// window when the call is interactive, and named as `error-field` when it is not; `Close` keeps
// a file that had arrived and says so in the Response. The service's bus runs in one network
// namespace and the LocalSend receiver (localsendd) in another.
import Foundation
import LocalTestSupport
import Testing

@Suite("The share session behind the service", .serialized)
struct ServiceSessionTests {
    /// A desktop, a link between two namespaces, a receiver on the far side (with `pin`) and a
    /// private bus on our side whose service shows its windows on the desktop.
    private func withReceiverAndBus(
        pin: String? = nil, _ body: (TemporaryHome, DesktopSession, ServiceBus, NetworkPair, LocalSendPeer) async throws -> Void
    ) async throws {
        let home = try TemporaryHome(prefix: "service-session")
        defer { home.remove() }
        let pair = try NetworkPair()
        defer { pair.remove() }
        let receiver = try LocalSendPeer(
            namespace: pair.theirs, home: home.root.appendingPathComponent("peer", isDirectory: true), alias: "Desk Laptop",
            pin: pin)
        defer { receiver.stop() }
        let desktop = try DesktopSession.start(in: home.root.appendingPathComponent("desktop", isDirectory: true))
        defer { desktop.stop() }
        let bus = try ServiceBus.start(home: home, desktop: desktop, namespace: pair.ours)
        defer { bus.stop() }
        try await body(home, desktop, bus, pair, receiver)
    }

    @Test("non-interactive AirDrop to a receiver that wants a PIN: Response 2 with error-field pin, and no option in the words")
    func nonInteractiveNamesTheField() async throws {
        try await withReceiverAndBus(pin: "4321") { home, _, bus, pair, receiver in
            let photo = try home.file("photo.png", ShareServiceTests.png)
            let output = try await ServiceClient(bus: bus).run([
                "share", "--file", photo.path + ":image/png", "--activity", "airdrop", "--field", "to=\(pair.theirAddress)",
                "--interactive", "false", "--token", "pin1",
            ])
            let result = try #require(output.objects.last, "client: \(output)")
            #expect(result["response"] as? Int == 2, "client: \(output); service: \(bus.logTail())")
            let results = result["results"] as? [String: Any]
            #expect(results?["error-field"] as? String == "pin", "client: \(output)")
            let message = (results?["error-message"] as? String) ?? ""
            #expect(!message.contains("--set"), "client: \(output)")
            #expect(receiver.receivedFiles().isEmpty)
        }
    }

    @Test("interactive AirDrop to a receiver that wants a PIN: the service's window asks, and the share goes with it")
    func interactiveAsksInTheWindow() async throws {
        try await withReceiverAndBus(pin: "4321") { home, desktop, bus, pair, receiver in
            let photo = try home.file("photo.png", ShareServiceTests.png)
            let client = ServiceClient(bus: bus)
            let started = try client.start([
                "share", "--file", photo.path + ":image/png", "--activity", "airdrop", "--field", "to=\(pair.theirAddress)",
                "--token", "pin2",
            ])
            let driver = AccessibilityDriver(session: desktop, pid: try await bus.servicePID())
            try await driver.click(name: "Send", role: "push button")
            try await driver.wait(name: "Desk Laptop asks for a PIN.", role: "label")
            try await driver.fill(name: "PIN", text: "4321", role: "text")
            try await driver.click(name: "Try Again", role: "push button")
            let output = try await client.finish(started)
            let result = try #require(output.objects.last, "client: \(output)")
            #expect(result["response"] as? Int == 0, "client: \(output); service: \(bus.logTail())")
            #expect(receiver.receivedFiles() == ["photo.png"], "\(receiver.process.output)")
        }
    }

    @Test("Close during a two-file AirDrop after the first arrived: Response 1 with kept and kept-location")
    func closeKeepsTheFileThatArrived() async throws {
        try await withReceiverAndBus { home, _, bus, pair, receiver in
            let files = try TwoFileTransfer(in: home.root.appendingPathComponent("items"), limiting: pair)
            let client = ServiceClient(bus: bus)
            let started = try client.start([
                "share", "--file", files.small.path, "--file", files.large.path, "--activity", "airdrop",
                "--field", "to=\(pair.theirAddress)", "--interactive", "false", "--token", "keep1", "--close-after", "6",
            ])
            #expect(await files.waitUntilTheSmallOneArrived(at: receiver), "\(receiver.process.output)")
            let output = try await client.finish(started)
            let result = try #require(output.objects.last, "client: \(output)")
            #expect(result["response"] as? Int == 1, "client: \(output); service: \(bus.logTail())")
            let results = result["results"] as? [String: Any]
            #expect(results?["kept"] as? String == "small.txt (1 of 2)", "client: \(output)")
            #expect(results?["kept-location"] as? String == "Desk Laptop", "client: \(output)")
            #expect(files.onlyTheSmallOneArrived(at: receiver), "received: \(receiver.receivedFiles())")
        }
    }
}
