import Foundation
import LocalTestSupport
import Testing

/// `share --activity print` run as a person would: the built binary, real files, exit codes.
@Suite("share --activity print")
struct PrintCommandLineTests {
    struct Run {
        var status: Int32
        var output: String
        var errors: String
    }

    private func share(
        _ arguments: [String], home: URL, cupsServer: String, extraEnvironment: [String: String] = [:]
    ) throws -> Run {
        let binary = try #require(Share.url, "the share executable was not found next to the test bundle")
        let environment = [
            "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
            "XDG_DATA_HOME": home.appendingPathComponent(".local/share").path, "CUPS_SERVER": cupsServer,
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "COLUMNS": "80",
        ].merging(extraEnvironment) { $1 }
        let run = try Command.run(binary.path, arguments, environment: environment, in: home)
        return Run(status: run.status, output: run.standardOutput, errors: run.standardError)
    }

    @Test("with no printer, the PDF is saved into Documents and its path printed")
    func savesAsPDF() throws {
        let home = try TemporaryFolder("home")
        defer { home.remove() }
        let text = home.file("a b;c.txt")
        try "Printed from the command line.".write(to: text, atomically: true, encoding: .utf8)
        let run = try share(
            ["--activity", "print", "--set", "media=letter", text.path], home: home.url,
            cupsServer: "127.0.0.1:\(try Loopback.freePort())")
        #expect(run.status == 0, "\(run.errors)")
        let saved = home.url.appendingPathComponent("Documents/a b;c.pdf")
        #expect(run.output == saved.path + "\n")
        #expect(try pdfText(saved).contains("Printed from the command line."))
        #expect(abs(try PDFInfo(saved).pageSize.width - 612) < 0.5)
    }

    @Test("a killed print's folder in the temporary folder goes at the next print; a running one's stays")
    func deadWriterFolders() throws {
        let home = try TemporaryFolder("home")
        defer { home.remove() }
        let temporary = home.file("tmp")
        let dead = "sharesheet-print-\(try Command.deadPID()).\(UUID().uuidString)"
        let alive = "sharesheet-print-\(getpid()).\(UUID().uuidString)"
        // Names without a PID (before #15) keep the age rule: gone after 36 hours untouched.
        let oldStale = "sharesheet-print-\(UUID().uuidString)"
        let oldFresh = "sharesheet-print-\(UUID().uuidString)"
        for name in [dead, alive, oldStale, oldFresh] {
            let folder = temporary.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("%PDF-1.4 half".utf8).write(to: folder.appendingPathComponent("document-1.pdf"))
        }
        let past = Date().addingTimeInterval(-37 * 3600)
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: temporary.appendingPathComponent(oldStale).path)
        let text = home.file("page.txt")
        try "One page.".write(to: text, atomically: true, encoding: .utf8)
        let run = try share(
            ["--activity", "print", text.path], home: home.url, cupsServer: "127.0.0.1:\(try Loopback.freePort())",
            extraEnvironment: ["TMPDIR": temporary.path])
        #expect(run.status == 0, "\(run.errors)")
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary.path).sorted()
        #expect(left == [alive, oldFresh].sorted(), "\(left)")
    }

    @Test("a corrupt image or a truncated PDF exits 65 naming the item, and no job reaches the printer")
    func badItems() throws {
        let peers = try PrintPeers()
        defer { peers.stop() }
        try peers.addQueue("Office", makeDefault: true)
        let home = try TemporaryFolder("home")
        defer { home.remove() }
        let text = home.file("cover.txt")
        try "Cover".write(to: text, atomically: true, encoding: .utf8)
        let image = home.file("photo 1.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0x11, count: 64)).write(to: image)
        let pdf = home.file("half.pdf")
        try Data("%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages".utf8).write(to: pdf)
        for (file, name) in [(image, "photo 1.png"), (pdf, "half.pdf")] {
            let run = try share(["--activity", "print", text.path, file.path], home: home.url, cupsServer: peers.server)
            #expect(run.status == 65)
            #expect(run.errors.hasPrefix("share: \(name): "), "\(run.errors)")
            #expect(run.errors.split(separator: "\n").count == 1)
        }
        #expect(try peers.jobs().isEmpty)
        #expect(peers.spooledFiles().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: home.file("Documents").path))
    }

    @Test("--set printer prints there and the job id is printed; a rejecting printer exits 69 with its reason")
    func printsAndRejects() throws {
        let peers = try PrintPeers()
        defer { peers.stop() }
        try peers.addQueue("Office")
        try peers.addQueue("Closed")
        try peers.reject("Closed", reason: "Toner replacement in progress")
        let home = try TemporaryFolder("home")
        defer { home.remove() }
        let text = home.file("memo.txt")
        try "Memo for the office printer.".write(to: text, atomically: true, encoding: .utf8)

        let printed = try share(
            ["--activity", "print", "--json", "--set", "printer=Office", "--set", "copies=2", text.path], home: home.url,
            cupsServer: peers.server)
        #expect(printed.status == 0, "\(printed.errors)")
        #expect(printed.output.contains("\"completed\":true"))
        #expect(printed.output.contains("\"returnedItems\":[\"Office-"))
        #expect(peers.spooledFiles().count == 1)

        let rejected = try share(["--activity", "print", "--set", "printer=Closed", text.path], home: home.url, cupsServer: peers.server)
        #expect(rejected.status == 69)
        #expect(rejected.errors == "share: printer Closed: not accepting jobs: Toner replacement in progress\n")
    }
}
