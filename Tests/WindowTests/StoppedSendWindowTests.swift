// Escape while a send runs (issue #25): the window says where the work is instead of closing
// on it — kept in the outbox, with Open Outbox, or cancelled with nothing waiting. Real peers:
// the real `share --gui`; a loopback socket that takes connections and never answers stands
// for a server that hangs, so the send is still running when Escape comes.
import Foundation
import LocalTestSupport
import Testing

@Suite("Escape during a send", .serialized)
struct StoppedSendWindowTests {
    private func outbox(_ desk: WindowDesk) -> [String] {
        let folder = desk.home.dataHome.appendingPathComponent("sharesheet/Outbox")
        return ["new", "sending"].flatMap { sub in
            (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(sub).path)) ?? []
        }
    }

    @Test("Mail to a server that never answers: Escape keeps the message in the outbox and says so, with Open Outbox")
    func escapeKeepsMailInTheOutbox() async throws {
        let silent = try Loopback.Socket(listening: true)
        defer { silent.close() }
        try await WindowDesk.with { desk in
            try desk.configure(
                "[mail]\nsmtp=smtp://127.0.0.1:\(silent.port)\nstarttls=off\nfrom=Ana Lima <ana@example.org>\nundo-seconds=0\n")
            let (notes, _) = try desk.notesAndPhoto()
            let window = try desk.startShare(["--to", "bo@example.com", notes.path])
            try await window.driver.click(name: "Mail", role: "push button")
            try await window.driver.click(name: "Send", role: "push button")
            try await window.driver.wait(name: "Sharing with Mail", role: nil)
            try await window.driver.key("Escape")
            try await window.driver.wait(name: "Kept the message", role: "label")
            try await window.driver.wait(name: "It waits in the outbox, to be sent with it.", role: "label")
            try await window.driver.wait(name: "Open Outbox", role: "push button")
            try await desk.saveScreenshot("stopped-mail-kept.png", of: window)
            #expect(outbox(desk).count == 1, "\(outbox(desk))")
            try await window.driver.key("Escape")
            let run = try await window.finish(timeout: 30)
            #expect(run.status != 0, "a stopped send is not a success: \(run.standardError)")
        }
    }

    @Test("AirDrop to a device that never answers: Escape cancels and the window says nothing waits")
    func escapeCancelsAirDrop() async throws {
        let silent = try Loopback.Socket(listening: true)
        defer { silent.close() }
        try await WindowDesk.with { desk in
            try desk.configure("[nearby]\ndiscovery-timeout=2\nmulticast-port=\(try Loopback.freePort())\n")
            let (notes, _) = try desk.notesAndPhoto()
            let window = try desk.startShare(["--to", "127.0.0.1:\(silent.port)", notes.path])
            try await window.driver.click(name: "AirDrop", role: "push button")
            try await window.driver.wait(name: "Device address", role: "text")
            try await window.driver.key("Return")
            try await window.driver.wait(name: "Sharing with AirDrop", role: nil)
            try await window.driver.key("Escape")
            try await window.driver.wait(name: "Cancelled", role: "label")
            try await window.driver.wait(name: "AirDrop was stopped before it finished. Nothing waits to be sent.", role: "label")
            try await desk.saveScreenshot("stopped-airdrop.png", of: window)
            try await window.driver.click(name: "Close", role: "push button")
            let run = try await window.finish(timeout: 30)
            #expect(run.status == 130, "cancelled: \(run.status) \(run.standardError)")
        }
    }
}
