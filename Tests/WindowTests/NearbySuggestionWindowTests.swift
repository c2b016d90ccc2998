// People and places first (issue #26), "LocalSend devices visible now": a receiver that comes
// into range while the window shows the sheet joins the suggestions row as "AirDrop to …", with
// no history at all, and picking it sends the file to it without the device step.
import Foundation
import LocalTestSupport
import Testing

@Suite("A device nearby in the window's suggestions", .serialized)
struct NearbySuggestionWindowTests {
    @Test("a LocalSend receiver in range appears as an avatar; picking it sends the file there at once")
    func nearbyDeviceIsSuggested() async throws {
        try await WindowDesk.with { desk in
            let pair = try NetworkPair()
            defer { pair.remove() }
            let receiver = try LocalSendPeer(
                namespace: pair.theirs, home: desk.home.root.appendingPathComponent("peer", isDirectory: true), alias: "Kitchen Phone")
            defer { receiver.stop() }
            let file = desk.home.root.appendingPathComponent("holiday.jpg")
            try writeRandomFile(file, size: 50_000)
            let started = try Share.start([file.path], home: desk.home, extra: desk.session.environment, namespace: pair.ours)
            let window = RunningWindow(started: started, driver: AccessibilityDriver(session: desk.session, pid: started.pid))
            // Nobody was shared with before: the row shows only what is in range.
            try await window.driver.click(name: "AirDrop to Kitchen Phone", role: "push button")
            let run = try await window.finish()
            #expect(run.status == 0, "share: \(run.standardError)")
            let received = receiver.downloads.appendingPathComponent("holiday.jpg")
            #expect(filesAreIdentical(file, received), "received: \(receiver.receivedFiles())")
        }
    }
}
