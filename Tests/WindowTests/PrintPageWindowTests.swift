// Print's own page (SPEC §7, issue #25): the printers CUPS lists, Save as PDF first when there
// is none (and the button then says Save PDF), the paper sizes the printer takes, and a
// preview of the first pages drawn from the PDF that will be printed. Real peers: the real
// `share --gui`; no scheduler at all, or a private cupsd with an ippeveprinter queue.
import Foundation
import LocalTestSupport
import Testing

@Suite("Print's page in the window", .serialized)
struct PrintPageWindowTests {
    private func nodes(of window: RunningWindow) async throws -> [[String: Any]] {
        try JSONSerialization.jsonObject(with: Data(try await window.driver.dump().utf8)) as? [[String: Any]] ?? []
    }

    private func names(of window: RunningWindow, role: String) async throws -> [String] {
        try await nodes(of: window).filter { $0["role"] as? String == role }.compactMap { $0["name"] as? String }
    }

    /// Waits for the preview's first page, whose accessible name is "Page 1 of N".
    private func firstPage(of window: RunningWindow) async throws -> String {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let pages = try await nodes(of: window).compactMap { $0["name"] as? String }.filter { $0.hasPrefix("Page 1 of ") }
            if let page = pages.first { return page }
            try await Task.sleep(for: .milliseconds(200))
        }
        Issue.record("no page 1 in the preview: \(try await nodes(of: window).compactMap { $0["name"] as? String })")
        return ""
    }

    @Test("with no printer: the list holds Save as PDF, the button says Save PDF, the preview shows page 1, and the PDF is saved")
    func noPrinterSavesPDF() async throws {
        try await WindowDesk.with { desk in
            let (notes, _) = try desk.notesAndPhoto()
            let window = try desk.startShare(
                ["--json", notes.path], extra: ["CUPS_SERVER": "127.0.0.1:\(try Loopback.freePort())"])
            try await window.driver.wait(name: "Print", role: "push button")
            try await window.driver.click(name: "Print", role: "push button")
            try await window.driver.wait(name: "Save as PDF", role: "radio button")
            try await window.driver.wait(name: "Save PDF", role: "push button")
            #expect(try await firstPage(of: window) == "Page 1 of 1")
            try await desk.saveScreenshot("print-no-printer.png", of: window)
            let buttons = try await names(of: window, role: "push button")
            #expect(!buttons.contains("Print"), "no Print button while Save as PDF is chosen: \(buttons)")

            try await window.driver.click(name: "Save PDF", role: "push button")
            try await window.driver.wait(name: "Saved as PDF", role: "label")
            try await window.driver.click(name: "Close", role: "push button")
            let run = try await window.finish()
            #expect(run.status == 0, "share: \(run.standardError)")
            let result = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any]
            #expect(result?["disposition"] as? String == "saved", "\(run.standardOutput)")
        }
    }

    @Test("with an IPP printer: the list names it first, the paper comes from its media, the button says Print, and the job prints there")
    func printerPrints() async throws {
        let peers = try PrintPeers()
        defer { peers.stop() }
        try peers.addQueue("Office", makeDefault: true)
        try await WindowDesk.with { desk in
            let (notes, _) = try desk.notesAndPhoto()
            let window = try desk.startShare(["--json", notes.path], extra: ["CUPS_SERVER": peers.server])
            try await window.driver.wait(name: "Print", role: "push button")
            try await window.driver.click(name: "Print", role: "push button")
            try await window.driver.wait(name: "Office", role: "radio button")
            try await window.driver.wait(name: "Save as PDF", role: "radio button")
            try await window.driver.wait(name: "Print", role: "push button")
            let radios = try await names(of: window, role: "radio button")
            #expect(radios.first == "Office", "the printer comes first: \(radios)")
            // ippeveprinter takes US Letter and A4 among others: sizes from the printer, in words.
            #expect(radios.contains("US Letter") && radios.contains("A4"), "paper from the printer's media: \(radios)")
            #expect(try await firstPage(of: window).hasPrefix("Page 1 of "))
            try await desk.saveScreenshot("print-printer.png", of: window)

            // Choosing Save as PDF turns the button into Save PDF; choosing the printer back, Print.
            try await window.driver.click(name: "Save as PDF", role: "radio button")
            try await window.driver.wait(name: "Save PDF", role: "push button")
            try await window.driver.click(name: "Office", role: "radio button")
            try await window.driver.wait(name: "Print", role: "push button")
            try await window.driver.click(name: "Print", role: "push button")
            let run = try await window.finish()
            #expect(run.status == 0, "share: \(run.standardError)")
            let result = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any]
            #expect(result?["disposition"] as? String == "printed", "\(run.standardOutput)")
            #expect((result?["location"] as? String)?.hasPrefix("Office-") == true, "\(run.standardOutput)")
            #expect(peers.spooledFiles().count == 1, "one job at the printer")
        }
    }
}
