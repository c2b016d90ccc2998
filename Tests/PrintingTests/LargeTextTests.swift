import Foundation
import LocalTestSupport
import Printing
import ShareSheet
import Testing

/// Text files printed page by page: memory bounded by a piece of the file, not by the file;
/// files that are not text refused; page counts exact across the pieces the file is read in.
@Suite("Printing large text files")
struct LargeTextTests {
    /// What a `share` run used and said.
    struct MeasuredRun {
        var status: Int32
        var errors: String
        /// The child's peak resident memory: VmHWM from /proc/PID/status, read every 10 ms while
        /// it ran (the mark only grows, so only growth in its last 10 ms can be missed), in KiB.
        /// Not ru_maxrss: after posix_spawn's vfork it starts at the test process's own peak.
        var peakKiB: Int
    }

    /// Runs `share ARGUMENTS` with a fresh home and no printer (Save as PDF), watching its own
    /// VmHWM while it runs (not `wait4`'s, which carries the test runner's peak).
    static func measuredShare(_ arguments: [String], home: URL) throws -> MeasuredRun {
        let binary = try #require(Share.url, "the share executable was not found next to the test bundle")
        let environment = [
            "HOME": home.path, "XDG_CONFIG_HOME": "\(home.path)/.config", "XDG_DATA_HOME": "\(home.path)/.local/share",
            "CUPS_SERVER": "127.0.0.1:\(try Loopback.freePort())", "PATH": "/usr/bin:/bin", "COLUMNS": "80",
        ]
        let errorsFile = home.appendingPathComponent("errors.txt")
        // Its peak is wait4's ru_maxrss when it is reaped: the high-water mark of its resident set (VmHWM).
        let process = try Command.start(
            binary.path, arguments,
            environment: environment, error: errorsFile)
        process.watchPeakMemory()
        let ended = process.finish(timeout: 600)
        let errors = (try? String(contentsOf: errorsFile, encoding: .utf8)) ?? ""
        return MeasuredRun(status: ended.status, errors: errors, peakKiB: process.peakResidentBytes / 1024)
    }

    /// Writes about `bytes` of text: numbered lines of 6 to 24 words, some wider than the page.
    static func writeText(bytes: Int, to url: URL) throws {
        let words = "the quick brown fox jumps over the lazy dog while seven eager packers box a dozen jugs of liquor"
            .split(separator: " ")
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var written = 0
        var number = 0
        var block = ""
        while written < bytes {
            number += 1
            let count = 6 + (number * 7) % 19
            let line = "Line \(number): " + (0..<count).map { words[(number + $0) % words.count] }.joined(separator: " ") + "\n"
            block += line
            written += line.utf8.count
            if block.utf8.count > 1 << 20 {
                try handle.write(contentsOf: Data(block.utf8))
                block = ""
            }
        }
        try handle.write(contentsOf: Data(block.utf8))
    }

    @Test("peak memory of printing a 12 MB text stays flat: under 192 MiB, and within 48 MiB of a 0.5 MB text's")
    func peakMemory() throws {
        let home = try TemporaryFolder("home")
        defer { home.remove() }
        let small = home.file("small.txt")
        let large = home.file("large.txt")
        try Self.writeText(bytes: 500_000, to: small)
        try Self.writeText(bytes: 12_000_000, to: large)
        let smallRun = try Self.measuredShare(["--activity", "print", small.path], home: home.url)
        #expect(smallRun.status == 0, "\(smallRun.errors)")
        let largeRun = try Self.measuredShare(["--activity", "print", large.path], home: home.url)
        #expect(largeRun.status == 0, "\(largeRun.errors)")
        let pdf = home.url.appendingPathComponent("Documents/large.pdf")
        #expect(try PDFInfo(pdf).pages > 3000)
        #expect(try pdfText(pdf, page: 1).contains("Line 1:"))
        #expect(smallRun.peakKiB > 0 && largeRun.peakKiB > 0, "the peaks were read")
        #expect(largeRun.peakKiB < 192 * 1024, "peak \(largeRun.peakKiB / 1024) MiB for 12 MB of text")
        #expect(
            largeRun.peakKiB - smallRun.peakKiB < 48 * 1024,
            "peak \(largeRun.peakKiB / 1024) MiB for 12 MB, \(smallRun.peakKiB / 1024) MiB for 0.5 MB")
    }

    @Test("a file of NUL bytes exits 65 with one line naming it, and nothing is saved")
    func nulBytes() throws {
        let home = try TemporaryFolder("home")
        defer { home.remove() }
        let zeros = home.file("zeros.txt")
        try Data(count: 1_000_000).write(to: zeros)
        // Valid UTF-8 text with NUL bytes far past the first piece read is refused too.
        let late = home.file("late zeros.txt")
        try Self.writeText(bytes: 2_000_000, to: late)
        let handle = try FileHandle(forWritingTo: late)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(count: 16) + Data("and more text\n".utf8))
        try handle.close()
        for (file, name) in [(zeros, "zeros.txt"), (late, "late zeros.txt")] {
            let run = try Self.measuredShare(["--activity", "print", file.path], home: home.url)
            #expect(run.status == 65, "\(run.errors)")
            #expect(run.errors == "share: \(name): not text (it holds NUL bytes)\n")
        }
        #expect(!FileManager.default.fileExists(atPath: home.file("Documents").path))
    }

    @Test("a text file read in pieces has exactly its pages, and no line lost or split where pieces meet")
    func exactPageCount() throws {
        let folder = try TemporaryFolder("print-test")
        defer { folder.remove() }
        // 2,500 form-feed-separated pages of 40 short lines (over 1 MB, many read pieces; every
        // page fits any monospace face at 10 pt), then one line longer than a piece may be.
        let file = folder.file("sections.txt")
        var text = ""
        for page in 1...2_500 {
            if page > 1 { text += "\u{0C}" }
            text += (1...40).map { "Page \(page) line \($0)" }.joined(separator: "\n") + "\n"
        }
        text += "\u{0C}" + String(repeating: "é", count: 100_000) + " the end"
        try text.write(to: file, atomically: true, encoding: .utf8)
        let job = try PrintJobRenderer(items: [file])
        let announced = job.renderedPageCount
        #expect(announced > 2_500)
        let documents = try job.render()
        defer { job.removeDocuments() }
        #expect(try PDFInfo(documents[0].url).pages == announced)
        #expect(documents[0].pageCount == announced)
        for page in [1, 2, 1_234, 1_700, 2_500] {
            let lines = try pdfText(documents[0].url, page: page).split(separator: "\n")
                .map { $0.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\u{0C}"))) }.filter { !$0.isEmpty }
            #expect(lines == (1...40).map { "Page \(page) line \($0)" }, "page \(page)")
        }
        let last = try pdfText(documents[0].url, page: announced)
        #expect(last.contains("the end"))
        #expect(!last.contains("\u{FFFD}"))
    }

    @Test("a text of more pages than the limit is refused naming it, before any page is drawn")
    func pageLimit() throws {
        let folder = try TemporaryFolder("print-test")
        defer { folder.remove() }
        let file = folder.file("long.txt")
        try (1...150).map { "Sheet \($0)" }.joined(separator: "\u{0C}").write(to: file, atomically: true, encoding: .utf8)
        let error = #expect(throws: ShareError.self) { try PrintJobRenderer(items: [file], pageLimit: 100) }
        #expect(error?.kind == .badData)
        #expect(error?.message == "long.txt: more than 100 pages, the most one print job may have")
        #expect(try PrintJobRenderer(items: [file], pageLimit: 150).renderedPageCount == 150)
        #expect(PrintJobRenderer.maximumPageCount >= 10_000)
    }
}
