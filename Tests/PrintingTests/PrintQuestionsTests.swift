// Print's questions in the terminal sheet only when CUPS lists a printer (README, "The terminal
// sheet"): with none, picking Print asks nothing and saves the PDF, saying so; with a printer
// (a private cupsd and ippeveprinter) Printer, Copies, Sides, Paper, Pages and the job's name
// are asked.
import Foundation
import LocalTestSupport
import Printing
import ShareSheet
import ShareSheetTerminal
import Testing

@Suite("Print in the terminal sheet: questions only when CUPS lists a printer")
struct PrintQuestionsTests {
    /// The terminal sheet over Print alone, fed `answers` as typed lines; what it wrote, and how
    /// the share ended.
    @MainActor
    private func sheet(service: PrintService, answers: [String], in folder: TemporaryFolder) async throws -> (
        text: String, outcome: ShareOutcome
    ) {
        let typed = folder.file("typed")
        try Data(answers.map { $0 + "\n" }.joined().utf8).write(to: typed)
        let descriptor = open(typed.path, O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let registry = ActivityRegistry()
        registry.install(.print) { PrintActivity(service: service) }
        let controller = ActivityViewController(
            activityItems: [DataItem(data: Data("Printed from the sheet.".utf8), filename: "sheet.txt")], applicationActivities: nil,
            registry: registry)
        let output = TextBuffer()
        controller.present(with: TerminalPresenter(input: FileDescriptorLineSource(descriptor: descriptor), output: output))
        let outcome = await controller.waitForCompletion()
        return (output.text, outcome)
    }

    @MainActor
    @Test("no printer: picking Print asks nothing, not even 'More fields?', and the PDF is saved")
    func noPrinterAsksNothing() async throws {
        let folder = try TemporaryFolder("print-questions")
        defer { folder.remove() }
        let documents = folder.file("Documents")
        let service = PrintService(server: "127.0.0.1:\(try Loopback.freePort())", documentsFolder: documents)
        let (text, outcome) = try await sheet(service: service, answers: ["1"], in: folder)
        #expect(outcome.completed, "\(text)")
        #expect(outcome.disposition == .saved)
        #expect(text.contains("No printer is set up: the document will be saved as PDF."), "\(text)")
        // Nor how to answer, with nothing to answer.
        for question in ["More fields", "Printer", "Copies", "Sides", "Paper", "Pages", "Job name", "Enter keeps"] {
            #expect(!text.contains(question), "\(question) was asked:\n\(text)")
        }
        #expect(FileManager.default.fileExists(atPath: documents.appendingPathComponent("sheet.pdf").path))
    }

    @MainActor
    @Test("a printer listed by CUPS: every question is asked, and Enter to each prints on the default printer")
    func aPrinterAsksEachQuestion() async throws {
        let peers = try PrintPeers()
        defer { peers.stop() }
        try peers.addQueue("Office", makeDefault: true)
        let folder = try TemporaryFolder("print-questions")
        defer { folder.remove() }
        let service = PrintService(server: peers.server, documentsFolder: folder.file("Documents"))
        let (text, outcome) = try await sheet(service: service, answers: ["1"] + Array(repeating: "", count: 6), in: folder)
        #expect(outcome.completed, "\(text)")
        #expect(outcome.disposition == .printed, "\(text)")
        // The printers and papers are CUPS's own: the default printer and the printer's default
        // paper (ippeveprinter's is US Letter) are what Enter keeps.
        for question in [
            "1) Office  Default printer", "2) Save as PDF", "Printer (number or name) [Office]: ", "Copies (1–999) [1]: ",
            "Sides (number or name) [One-sided]: ", "1) US Letter", "Paper (number or name) [US Letter]: ", "Pages: ",
            "Job name [sheet]: ",
        ] {
            #expect(text.contains(question), "\(question) was not asked:\n\(text)")
        }
        #expect(!text.contains("More fields"), "\(text)")
        #expect(!text.contains("No printer is set up"), "\(text)")
    }
}
