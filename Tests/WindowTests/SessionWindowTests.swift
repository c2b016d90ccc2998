// The share session in the window (SPEC §11): a receiver's PIN is asked on a page of the
// window and the share goes again with it; the window's Cancel keeps a file that had arrived.
// The receivers are LocalSend peers (localsendd) in a network namespace of their own.
import Foundation
import LocalTestSupport
import Testing

@Suite("The share session in the window", .serialized)
struct SessionWindowTests {
    /// A desk, a link between two namespaces and a receiver on the far side (with `pin`).
    private func withReceiver(
        pin: String? = nil, _ body: (WindowDesk, NetworkPair, LocalSendPeer) async throws -> Void
    ) async throws {
        try await WindowDesk.with { desk in
            let pair = try NetworkPair()
            defer { pair.remove() }
            let receiver = try LocalSendPeer(
                namespace: pair.theirs, home: desk.home.root.appendingPathComponent("peer", isDirectory: true),
                alias: "Desk Laptop", pin: pin)
            defer { receiver.stop() }
            try await body(desk, pair, receiver)
        }
    }

    @Test("AirDrop from the sheet to a receiver with a PIN: the window asks, a wrong PIN is asked again, the right one sends")
    func pinAskedInTheWindow() async throws {
        try await withReceiver(pin: "4321") { desk, pair, receiver in
            let photo = try desk.home.file("photo.png", Samples.photo)
            let started = try Share.start([photo.path], home: desk.home, extra: desk.session.environment, namespace: pair.ours)
            let window = RunningWindow(started: started, driver: AccessibilityDriver(session: desk.session, pid: started.pid))
            try await window.driver.click(name: "AirDrop", role: "push button")
            try await window.driver.click(name: "Desk Laptop", role: "push button")
            try await window.driver.wait(name: "Desk Laptop asks for a PIN.", role: "label")
            try await desk.saveScreenshot("pin-page.png", of: window)
            try await window.driver.fill(name: "PIN", text: "0000", role: "text")
            try await window.driver.click(name: "Try Again", role: "push button")
            try await window.driver.wait(name: "Desk Laptop did not accept the PIN.", role: "label")
            try await window.driver.wait(name: "Check it and type it again.", role: "label")
            try await window.driver.fill(name: "PIN", text: "4321", role: "text")
            try await window.driver.key("Return")
            let run = try await window.finish()
            #expect(run.status == 0, "share: \(run.standardError)")
            #expect(filesAreIdentical(photo, receiver.downloads.appendingPathComponent("photo.png")), "\(receiver.receivedFiles())")
        }
    }

    @Test("share --activity airdrop --to HOST on a display without a terminal: the PIN is asked in a window")
    func pinAskedWithoutATerminal() async throws {
        try await withReceiver(pin: "2468") { desk, pair, receiver in
            let photo = try desk.home.file("photo.png", Samples.photo)
            let started = try Share.start(
                ["--activity", "airdrop", "--to", pair.theirAddress, photo.path], home: desk.home,
                extra: desk.session.environment, namespace: pair.ours)
            let window = RunningWindow(started: started, driver: AccessibilityDriver(session: desk.session, pid: started.pid))
            try await window.driver.wait(name: "Desk Laptop asks for a PIN.", role: "label")
            try await window.driver.fill(name: "PIN", text: "2468", role: "text")
            try await window.driver.click(name: "Try Again", role: "push button")
            let run = try await window.finish()
            #expect(run.status == 0, "share: \(run.standardError)")
            #expect(!run.standardError.contains("--set"), "a person was asked, not told an option: \(run.standardError)")
            #expect(filesAreIdentical(photo, receiver.downloads.appendingPathComponent("photo.png")), "\(receiver.receivedFiles())")
        }
    }

    @Test("Cancel during a two-file AirDrop after the first arrived: the window says what was kept, the result has it")
    func cancelKeepsTheFileThatArrived() async throws {
        try await withReceiver { desk, pair, receiver in
            let files = try TwoFileTransfer(in: desk.home.root.appendingPathComponent("items"), limiting: pair)
            let started = try Share.start(
                [files.small.path, files.large.path, "--json"], home: desk.home, extra: desk.session.environment,
                namespace: pair.ours)
            let window = RunningWindow(started: started, driver: AccessibilityDriver(session: desk.session, pid: started.pid))
            try await window.driver.click(name: "AirDrop", role: "push button")
            try await window.driver.click(name: "Desk Laptop", role: "push button")
            #expect(await files.waitUntilTheSmallOneArrived(at: receiver), "\(receiver.process.output)")
            try await window.driver.click(name: "Cancel", role: "push button")
            try await window.driver.wait(name: "Kept small.txt (1 of 2)", role: "label")
            try await window.driver.wait(name: "It is on Desk Laptop.", role: "label")
            try await window.driver.wait(name: "AirDrop", role: "label")
            try await desk.saveScreenshot("cancel-kept.png", of: window)
            try await window.driver.click(name: "Close", role: "push button")
            let run = try await window.finish()
            #expect(run.status == 130, "share: \(run.standardError)")
            let result = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any]
            #expect((result?["kept"] as? [String: Any])?["what"] as? String == "small.txt (1 of 2)", "\(run.standardOutput)")
            #expect(files.onlyTheSmallOneArrived(at: receiver), "received: \(receiver.receivedFiles())")
        }
    }
}
