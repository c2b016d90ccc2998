import Foundation
import LocalTestSupport
import ShareSheet
import Testing

@testable import Printing

/// Printing through a private cupsd to an ippeveprinter, both started by each test on loopback.
@Suite("Printing through CUPS")
struct CUPSTests {
    @Test("a job reaches the printer's spool and is followed to completion")
    func printsToCompletion() throws {
        let peers = try PrintPeers()
        defer { peers.stop() }
        try peers.addQueue("Office", makeDefault: true)
        let documents = try TemporaryFolder("documents")
        defer { documents.remove() }
        let service = PrintService(server: peers.server, documentsFolder: documents.url)
        #expect(service.printers().map(\.name) == ["Office"])

        let info = PrintInfo()
        info.jobName = "Spool check"
        let job = try PrintJobRenderer(items: ["Hello from the CUPS test.", info])
        let progress = Progress(totalUnitCount: -1)
        let outcome = try service.run(job, options: PrintOptions(paper: .letter), progress: progress)
        guard case .printed(let printer, let id) = outcome else {
            Issue.record("expected a printed job, got \(outcome)")
            return
        }
        #expect(printer == "Office")
        #expect(progress.completedUnitCount == 1000)
        // The scheduler says completed, the printer kept the file, and it holds our text.
        let connection = try CUPSConnection(server: peers.server)
        #expect(connection.status(ofJob: id, printer: "Office")?.isCompleted == true)
        let spooled = peers.spooledFiles()
        #expect(spooled.count == 1)
        if let file = spooled.first {
            #expect(try pdfText(file).contains("Hello from the CUPS test."))
            let size = try PDFInfo(file).pageSize
            #expect(abs(size.width - 612) < 1 && abs(size.height - 792) < 1)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: documents.url.path).isEmpty)
    }

    @Test("a printer that stops accepting jobs fails the job with the printer's reason")
    func rejectingPrinter() throws {
        let peers = try PrintPeers()
        defer { peers.stop() }
        try peers.addQueue("Office", makeDefault: true)
        try peers.reject("Office", reason: "Paper tray removed for the test")
        let service = PrintService(server: peers.server, documentsFolder: try TemporaryFolder("documents").url)
        let job = try PrintJobRenderer(items: ["Never printed."])
        let error = #expect(throws: ShareError.self) { try service.run(job, options: PrintOptions()) }
        #expect(error?.kind == .unavailable)
        #expect(error?.message == "printer Office: not accepting jobs: Paper tray removed for the test")
        #expect(try peers.jobs().isEmpty)
        #expect(peers.spooledFiles().isEmpty)
    }

    @Test("the Print activity prints with the dialog's values and returns the job")
    @MainActor
    func activityPrints() async throws {
        let peers = try PrintPeers()
        defer { peers.stop() }
        try peers.addQueue("Office")
        try peers.addQueue("Lab")
        let folder = try TemporaryFolder("print-test")
        defer { folder.remove() }
        let text = folder.file("notes.txt")
        try "Notes for the lab printer.".write(to: text, atomically: true, encoding: .utf8)

        let outcome = await share(
            [text], peers: peers, documents: folder.file("Documents"),
            values: ["printer": .text("Lab"), "copies": .text("2"), "sides": .text("two-sided-long-edge"), "media": .text("legal")])
        #expect(outcome.completed, "\(String(describing: outcome.error))")
        let returned = outcome.returnedItems as? [String]
        #expect(returned?.count == 1)
        #expect(returned?.first?.hasPrefix("Lab-") == true)
        let spooled = peers.spooledFiles()
        #expect(spooled.count == 1)
        if let file = spooled.first {
            #expect(try pdfText(file).contains("Notes for the lab printer."))
            let size = try PDFInfo(file).pageSize
            #expect(abs(size.width - 612) < 1 && abs(size.height - 1008) < 1)
        }
    }

    @Test("a corrupt image or a truncated PDF fails naming the item, and no job is submitted")
    @MainActor
    func badItemSubmitsNothing() async throws {
        let peers = try PrintPeers()
        defer { peers.stop() }
        try peers.addQueue("Office", makeDefault: true)
        let folder = try TemporaryFolder("print-test")
        defer { folder.remove() }
        let text = folder.file("cover.txt")
        try "Cover page".write(to: text, atomically: true, encoding: .utf8)
        let image = folder.file("a b;c.png")
        writePNG(width: 100, height: 50, to: image)
        let bytes = try Data(contentsOf: image)
        try (bytes.prefix(70) + Data(repeating: 0x7A, count: 30)).write(to: image)
        let pdf = folder.file("cut.pdf")
        try Data("%PDF-1.5\n1 0 obj << /Type /Catalog >> endobj\n".utf8).write(to: pdf)

        for (item, name) in [(image, "a b;c.png"), (pdf, "cut.pdf")] {
            let outcome = await share([text, item], peers: peers, documents: folder.file("Documents"), values: [:])
            #expect(!outcome.completed)
            let error = outcome.error as? ShareError
            #expect(error?.kind == .badData)
            #expect(error?.message.hasPrefix("\(name):") == true, "\(String(describing: error))")
        }
        #expect(try peers.jobs().isEmpty)
        #expect(peers.spooledFiles().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.file("Documents").path))
    }

    @Test("dismissing the sheet cancels the job at the printer")
    @MainActor
    func dismissCancels() async throws {
        let peers = try PrintPeers()
        defer { peers.stop() }
        try peers.addQueue("Office", makeDefault: true)
        let registry = ActivityRegistry()
        let activity = PrintActivity(service: PrintService(server: peers.server, documentsFolder: try TemporaryFolder("print-test").url))
        registry.install(.print) { activity }
        let controller = ActivityViewController(
            activityItems: [DataItem(data: Data("Cancel me".utf8), filename: "cancel.txt")], applicationActivities: nil,
            registry: registry)
        let presenter = ScriptedPresenter(pick: .print)
        controller.present(with: presenter)
        // Wait until the job is at the scheduler, then dismiss.
        var jobID: Int32?
        for _ in 0..<400 {
            if let line = try peers.jobs().first, let dash = line.split(separator: " ").first?.split(separator: "-").last {
                jobID = Int32(dash)
                break
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        let id = try #require(jobID)
        controller.dismiss()
        let outcome = await controller.waitForCompletion()
        #expect(!outcome.completed)
        let connection = try CUPSConnection(server: peers.server)
        var state: Int32?
        for _ in 0..<100 {
            state = connection.status(ofJob: id, printer: "Office")?.state
            if let state, state >= 7 { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(state == 7, "job-state \(String(describing: state)) (7 is canceled)")
    }

    @MainActor
    private func share(_ items: [Any], peers: PrintPeers, documents: URL, values: InterfaceValues) async -> ShareOutcome {
        let registry = ActivityRegistry()
        let service = PrintService(server: peers.server, documentsFolder: documents)
        registry.install(.print) { PrintActivity(service: service) }
        let controller = ActivityViewController(activityItems: items, applicationActivities: nil, registry: registry)
        let presenter = ScriptedPresenter(pick: .print, values: values)
        controller.present(with: presenter)
        return await controller.waitForCompletion()
    }
}

/// Save as PDF: the embedded default when no printer exists.
@Suite("Save as PDF")
struct SaveAsPDFTests {
    @Test("with no scheduler the PDF lands in Documents under the job's name, never replacing a file")
    func savesWithoutScheduler() throws {
        let folder = try TemporaryFolder("print-test")
        defer { folder.remove() }
        let documents = folder.file("Documents")
        let service = PrintService(server: "127.0.0.1:\(try Loopback.freePort())", documentsFolder: documents)
        #expect(service.printers().isEmpty)
        let info = PrintInfo()
        info.jobName = "Trip/Plan"
        var saved: [URL] = []
        for _ in 0..<2 {
            let job = try PrintJobRenderer(items: ["Saved, not printed.", info])
            guard case .saved(let urls) = try service.run(job, options: PrintOptions()) else {
                Issue.record("expected a saved PDF")
                return
            }
            saved += urls
        }
        #expect(saved.map(\.lastPathComponent) == ["Trip-Plan.pdf", "Trip-Plan 2.pdf"])
        #expect(try pdfText(saved[0]).contains("Saved, not printed."))
        #expect(try FileManager.default.contentsOfDirectory(atPath: documents.path).sorted() == ["Trip-Plan 2.pdf", "Trip-Plan.pdf"])
    }

    @Test("a scheduler with no printers also saves")
    func savesWithoutPrinters() throws {
        let peers = try PrintPeers()
        defer { peers.stop() }
        let documents = try TemporaryFolder("documents")
        defer { documents.remove() }
        let service = PrintService(server: peers.server, documentsFolder: documents.url)
        let job = try PrintJobRenderer(items: ["No printer here."])
        let outcome = try service.run(job, options: PrintOptions())
        #expect(outcome == .saved([documents.url.appendingPathComponent("Print.pdf")]) || {
            if case .saved(let urls) = outcome { return urls.count == 1 }
            return false
        }())
    }

    @Test("a named printer that does not exist is an error, not a saved file")
    func unknownPrinter() throws {
        let folder = try TemporaryFolder("print-test")
        defer { folder.remove() }
        let service = PrintService(server: "127.0.0.1:\(try Loopback.freePort())", documentsFolder: folder.url)
        let error = #expect(throws: ShareError.self) {
            try service.run(try PrintJobRenderer(items: ["x"]), options: PrintOptions(printer: "Nowhere"))
        }
        #expect(error?.kind == .unavailable)
        #expect(error?.message == "printer Nowhere: no such printer (no printers exist)")
    }

    @Test("the Print activity saves into the Documents folder and returns the file")
    @MainActor
    func activitySaves() async throws {
        let folder = try TemporaryFolder("print-test")
        defer { folder.remove() }
        let image = folder.file("holiday.png")
        writePNG(width: 400, height: 300, to: image)
        let registry = ActivityRegistry()
        let service = PrintService(server: "127.0.0.1:\(try Loopback.freePort())", documentsFolder: folder.file("Documents"))
        let activity = PrintActivity(service: service)
        registry.install(.print) { activity }
        let controller = ActivityViewController(activityItems: [image], applicationActivities: nil, registry: registry)
        controller.present(with: ScriptedPresenter(pick: .print))
        let outcome = await controller.waitForCompletion()
        #expect(outcome.completed, "\(String(describing: outcome.error))")
        // Counted in pages ("page 1 of 1" on a terminal), and it ends full.
        #expect(activity.progress.kind == .page)
        #expect(activity.progress.totalUnitCount == 1)
        #expect(activity.progress.completedUnitCount == 1)
        let url = try #require((outcome.returnedItems as? [URL])?.first)
        #expect(url.lastPathComponent == "holiday.pdf")
        #expect(try PDFInfo(url).pages == 1)
    }
}
