import Foundation
import Printing

/// Print: rendering a 500-page plain-text document to PDF with `PrintJobRenderer` (Pango lays
/// the text out once and cuts it into pages, Cairo writes the PDF), against two renderers from
/// Debian on the same text:
/// - `texttopdf`, the cups-filters filter CUPS itself runs on text jobs (paginates; built-in
///   Courier, no text shaping);
/// - `pango-view --output` (pango1.0-tools), Pango's own renderer. It does not paginate: it lays
///   the whole text out as one tall page, and its time grows faster than linearly with the
///   length (50 pages took 32 s, 100 pages 105 s on the loaded 2-core machine), so it is timed
///   on a 50-page slice of the same text and compared with our time for those 50 pages.
struct PrintBenchmark {
    let config: Config
    private let folder = benchFolder.appendingPathComponent("print", isDirectory: true)

    private var pages: Int { config.quick ? 50 : 500 }
    private var slicePages: Int { config.quick ? 10 : 50 }
    private var runs: Int { config.quick ? 1 : 3 }
    private static let linesPerPage = 55
    private static let font = "Monospace 10"

    private struct Row {
        var name: String
        var times = Samples()
        var pages = 0
        var bytes = 0
        var failed = false
    }

    func run() -> String {
        note("Print: writing a \(pages)-page text")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Lines of 72 characters, 55 to a page, pages separated by form feeds.
        let line = { (page: Int, row: Int) in
            String("Page \(page), line \(row): the quick brown fox jumps over the lazy dog, again and again.".prefix(72))
        }
        let pageTexts = (1...pages).map { page in (1...Self.linesPerPage).map { line(page, $0) }.joined(separator: "\n") }
        let whole = folder.appendingPathComponent("document.txt")
        let slice = folder.appendingPathComponent("slice.txt")
        let slicePlain = folder.appendingPathComponent("slice-plain.txt")
        do {
            try pageTexts.joined(separator: "\u{0C}").write(to: whole, atomically: true, encoding: .utf8)
            try pageTexts.prefix(slicePages).joined(separator: "\u{0C}").write(to: slice, atomically: true, encoding: .utf8)
            try pageTexts.prefix(slicePages).joined(separator: "\n").write(to: slicePlain, atomically: true, encoding: .utf8)
        } catch {
            return "## Print\n\nCould not write the text: \(error)"
        }
        // The content width our text pages use on A4: the sheet less 18 pt + 54 pt each side.
        let width = Int(PaperSize.a4.size.width - 144)
        let output = folder.appendingPathComponent("out.pdf")

        var ours = Row(name: "`PrintJobRenderer`, \(pages) pages")
        var cups = Row(name: "`texttopdf` (cups-filters), \(pages) pages")
        var oursSlice = Row(name: "`PrintJobRenderer`, \(slicePages) pages")
        var view = Row(name: "`pango-view --output`, \(slicePages) pages")
        for round in 1...runs {
            note("Print: round \(round) of \(runs)")
            render(whole, into: &ours)
            tool(
                "/usr/lib/cups/filter/texttopdf", ["1", "bench", "bench", "1", "media=A4 cpi=12 lpi=6", whole.path],
                stdout: output, into: &cups)
            render(slice, into: &oursSlice)
            tool(
                "/usr/bin/pango-view",
                [
                    "-q", "--font=\(Self.font)", "--dpi=72", "--width=\(width)", "--wrap=word-char", "--margin=0",
                    "--output=\(output.path)", slicePlain.path,
                ], stdout: nil, output: output, into: &view)
        }
        func tableRow(_ row: Row, pages: Int) -> String {
            let rate = Double(pages) / row.times.median.inSeconds
            return "| \(row.name) | \(row.failed ? "failed" : row.times.summary) | \(significant(rate)) | "
                + "\(row.bytes / 1024) KiB | \(row.pages) |"
        }
        return """
            ## Print: rendering a \(pages)-page plain-text document

            The same text — \(pages) pages of \(Self.linesPerPage) lines of 72 characters, pages separated by form \
            feeds — rendered to PDF. `PrintJobRenderer`: the text file as an item (→ `SimpleTextPrintFormatter` \
            in a `PrintPageRenderer`), \(Self.font), A4, Pango layout cut into pages, Cairo PDF. `texttopdf`: \
            `texttopdf 1 bench bench 1 "media=A4 cpi=12 lpi=6" document.txt > out.pdf`. `pango-view`: \
            `pango-view -q --font="\(Self.font)" --dpi=72 --width=\(width) --wrap=word-char --output=out.pdf` \
            on the first \(slicePages) pages with newlines for form feeds (it makes one tall page and slows down \
            faster than linearly with length, so it gets the slice). Median of \(runs) run\(runs == 1 ? "" : "s"), \
            interleaved; the external tools' times include starting the process.

            | renderer | time: median (min–max) | pages per second | PDF size | pages in the PDF |
            |---|---|---|---|---|
            \(tableRow(ours, pages: pages))
            \(tableRow(cups, pages: pages))
            \(tableRow(oursSlice, pages: slicePages))
            \(tableRow(view, pages: slicePages))

            Ratios (time, lower is faster for us): ours ÷ texttopdf = \
            **\(significant(ours.times.median.ratio(to: cups.times.median)))×** on \(pages) pages; \
            ours ÷ pango-view = **\(significant(oursSlice.times.median.ratio(to: view.times.median)))×** on \(slicePages) pages.
            """
    }

    private func render(_ file: URL, into row: inout Row) {
        let start = benchClock.now
        do {
            let job = try PrintJobRenderer(items: [file])
            let documents = try job.render()
            row.times.add(start.duration(to: benchClock.now))
            row.pages = documents.first?.pageCount ?? 0
            row.bytes = documents.first.flatMap { Self.size(of: $0.url) } ?? 0
            job.removeDocuments()
        } catch {
            row.failed = true
        }
    }

    private func tool(_ path: String, _ arguments: [String], stdout: URL?, output: URL? = nil, into row: inout Row) {
        let result = output ?? stdout!
        let start = benchClock.now
        let status = Self.runTool(path, arguments, stdout: stdout)
        row.times.add(start.duration(to: benchClock.now))
        row.failed = row.failed || status != 0
        row.bytes = Self.size(of: result) ?? 0
        row.pages = Self.pdfPages(result)
        try? FileManager.default.removeItem(at: result)
    }

    private static func pdfPages(_ url: URL) -> Int {
        let pipe = Pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/pdfinfo")
        process.arguments = [url.path]
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return 0 }
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let line = text.split(separator: "\n").first { $0.hasPrefix("Pages:") }
        return line.flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces)) } ?? 0
    }

    private static func size(of url: URL) -> Int? {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.intValue
    }

    private static func runTool(_ path: String, _ arguments: [String], stdout: URL?) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let stdout {
            _ = FileManager.default.createFile(atPath: stdout.path, contents: nil)
            process.standardOutput = FileHandle(forWritingAtPath: stdout.path)
        } else {
            process.standardOutput = FileHandle.nullDevice
        }
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return -1
        }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
