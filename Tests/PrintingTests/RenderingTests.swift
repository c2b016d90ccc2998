import Foundation
import LocalTestSupport
import Printing
import ShareSheet
import Testing

/// Rendering to PDF, read back with poppler's pdftotext and pdfinfo.
@Suite("Rendering to PDF")
struct RenderingTests {
    /// Renders `items` and returns the single PDF.
    private func render(_ items: [Any], paper: PaperSize = .a4, info: PrintInfo? = nil) throws -> (PrintJobRenderer, URL, TemporaryFolder) {
        let job = try PrintJobRenderer(items: items, info: info, paper: paper)
        let documents = try job.render()
        #expect(documents.count == 1)
        let folder = try TemporaryFolder("print-test")
        let copy = folder.file("out.pdf")
        try FileManager.default.copyItem(at: documents[0].url, to: copy)
        job.removeDocuments()
        return (job, copy, folder)
    }

    @Test("a string prints its text")
    func stringText() throws {
        let (_, pdf, folder) = try render(["Quarterly report: revenue grew by 12 percent."])
        defer { folder.remove() }
        let text = try pdfText(pdf)
        #expect(text.contains("Quarterly report: revenue grew by 12 percent."))
        #expect(try PDFInfo(pdf).pages == 1)
    }

    @Test("a 50-page text has 50 pages, known before rendering")
    func fiftyPages() throws {
        let pages = (1...50).map { "This is page \($0) of the text.\nA second line." }
        let folder = try TemporaryFolder("print-test")
        defer { folder.remove() }
        let file = folder.file("fifty.txt")
        try pages.joined(separator: "\u{0C}").write(to: file, atomically: true, encoding: .utf8)
        let job = try PrintJobRenderer(items: [file])
        #expect(job.renderedPageCount == 50)
        let documents = try job.render()
        let info = try PDFInfo(documents[0].url)
        #expect(info.pages == 50)
        #expect(documents[0].pageCount == 50)
        #expect(try pdfText(documents[0].url, page: 37).contains("This is page 37 of the text."))
        job.removeDocuments()
    }

    @Test("a long text breaks into the pages it announced")
    func longText() throws {
        let lines = (1...1000).map { "Line \($0): the quick brown fox jumps over the lazy dog." }
        let job = try PrintJobRenderer(items: [lines.joined(separator: "\n")])
        let announced = job.renderedPageCount
        #expect(announced > 10)
        let documents = try job.render()
        #expect(try PDFInfo(documents[0].url).pages == announced)
        let last = try pdfText(documents[0].url, page: announced)
        #expect(last.contains("Line 1000:"))
        // No line is lost at a page break.
        let all = try pdfText(documents[0].url)
        for number in [1, 57, 58, 59, 500, 999] { #expect(all.contains("Line \(number):")) }
        job.removeDocuments()
    }

    @Test("the paper sets the page size", arguments: [
        ("a4", 595.276, 841.89), ("letter", 612.0, 792.0), ("legal", 612.0, 1008.0), ("iso_a5_148x210mm", 419.528, 595.276),
    ])
    func paperSize(name: String, width: Double, height: Double) throws {
        let paper = try #require(PaperSize(named: name))
        let (_, pdf, folder) = try render(["paper \(name)"], paper: paper)
        defer { folder.remove() }
        let size = try PDFInfo(pdf).pageSize
        #expect(abs(size.width - width) < 0.5)
        #expect(abs(size.height - height) < 0.5)
    }

    @Test("a landscape print info turns the pages")
    func landscape() throws {
        let info = PrintInfo()
        info.orientation = .landscape
        let (_, pdf, folder) = try render(["sideways"], info: info)
        defer { folder.remove() }
        let size = try PDFInfo(pdf).pageSize
        #expect(size.width > size.height)
    }

    @Test("an image is one page turned to its shape", arguments: [(800, 400, true), (300, 600, false)])
    func imagePage(width: Int, height: Int, wide: Bool) throws {
        let folder = try TemporaryFolder("print-test")
        defer { folder.remove() }
        let file = folder.file("picture.png")
        writePNG(width: width, height: height, to: file)
        let (job, pdf, output) = try render([file])
        defer { output.remove() }
        #expect(job.renderedPageCount == 1)
        let info = try PDFInfo(pdf)
        #expect(info.pages == 1)
        #expect((info.pageSize.width > info.pageSize.height) == wide)
        // An A4 sheet, turned.
        #expect(abs(max(info.pageSize.width, info.pageSize.height) - 841.89) < 0.5)
        let images = try Command.output("pdfimages", ["-list", pdf.path])
        #expect(images.contains("\(width)") && images.contains("\(height)"))
    }

    @Test("an Image item prints like its file")
    func imageItem() throws {
        let folder = try TemporaryFolder("print-test")
        defer { folder.remove() }
        let file = folder.file("photo.png")
        writePNG(width: 640, height: 480, to: file)
        let image = try #require(Image(contentsOfFile: file.path))
        let (_, pdf, output) = try render([image])
        defer { output.remove() }
        #expect(try PDFInfo(pdf).pages == 1)
    }

    @Test("several items become one document in their order")
    func severalItems() throws {
        let folder = try TemporaryFolder("print-test")
        defer { folder.remove() }
        let picture = folder.file("wide.png")
        writePNG(width: 900, height: 300, to: picture)
        let (job, pdf, output) = try render(["First item: text.", picture, "Third item: more text."])
        defer { output.remove() }
        #expect(job.renderedPageCount == 3)
        #expect(try PDFInfo(pdf).pages == 3)
        #expect(try pdfText(pdf, page: 1).contains("First item"))
        #expect(try pdfText(pdf, page: 3).contains("Third item"))
        #expect(!(try pdfText(pdf, page: 2).contains("item")))
    }

    @Test("a PDF passes through unchanged")
    func pdfPassThrough() throws {
        let (_, source, folder) = try render(["A document made elsewhere."])
        defer { folder.remove() }
        let original = try Data(contentsOf: source)
        let job = try PrintJobRenderer(items: [DataItem(data: original, filename: "made.pdf")])
        let documents = try job.render()
        #expect(documents.count == 1)
        #expect(documents[0].isPassThrough)
        #expect(try Data(contentsOf: documents[0].url) == original)
        job.removeDocuments()
    }

    @Test("a page renderer draws its header and footer on every page")
    func headerFooter() throws {
        let renderer = NumberingRenderer()
        let formatter = SimpleTextPrintFormatter(text: (1...400).map { "Body line \($0)" }.joined(separator: "\n"))
        renderer.addPrintFormatter(formatter, startingAtPageAt: 0)
        let (job, pdf, folder) = try render([renderer])
        defer { folder.remove() }
        let pages = job.renderedPageCount
        #expect(pages > 3)
        #expect(renderer.preparedRange == 0..<pages)
        #expect(try PDFInfo(pdf).pages == pages)
        for page in 1...pages {
            let text = try pdfText(pdf, page: page)
            #expect(text.contains("Annual Report — header \(page)"))
            #expect(text.contains("Page \(page) of \(pages)"))
        }
    }

    @Test("a renderer that draws its own pages")
    func customRenderer() throws {
        let renderer = DrawnRenderer()
        let (_, pdf, folder) = try render([renderer])
        defer { folder.remove() }
        #expect(try PDFInfo(pdf).pages == 2)
        #expect(try pdfText(pdf, page: 2).contains("drawn page 2"))
    }

    @Test("the markup formatter prints headings, lists, links and line breaks")
    func markup() throws {
        let html = """
            <html><head><title>skip me</title><style>p { color: red }</style></head><body>
            <h1>Trip &amp; Plans</h1>
            <p>We <b>leave</b> on <i>Monday</i>.<br>Bring a coat.</p>
            <ul><li>Tickets</li><li>Passport</li></ul>
            <ol><li>Pack</li><li>Go</li></ol>
            <p>See <a href="https://example.org/trip">the plan</a>.</p>
            </body></html>
            """
        let (_, pdf, folder) = try render([MarkupTextPrintFormatter(markupText: html)])
        defer { folder.remove() }
        let text = try pdfText(pdf)
        #expect(text.contains("Trip & Plans"))
        #expect(text.contains("We leave on Monday."))
        #expect(text.contains("Bring a coat."))
        #expect(!text.contains("Monday. Bring"))
        #expect(text.contains("• Tickets"))
        #expect(text.contains("2. Go"))
        #expect(text.contains("the plan (https://example.org/trip)"))
        #expect(!text.contains("skip me"))
        #expect(!text.contains("color"))
    }

    @Test("an attributed string prints its text and its links")
    func attributed() throws {
        var text = AttributedString("Read the ")
        var link = AttributedString("manual")
        link.link = URL(string: "https://example.org/manual")
        text += link
        text += AttributedString(" first.")
        let (_, pdf, folder) = try render([text])
        defer { folder.remove() }
        #expect(try pdfText(pdf).contains("Read the manual (https://example.org/manual) first."))
    }

    @Test("a corrupt image fails naming the item, before anything renders")
    func corruptImage() throws {
        let folder = try TemporaryFolder("print-test")
        defer { folder.remove() }
        let file = folder.file("broken photo.png")
        writePNG(width: 200, height: 100, to: file)
        var bytes = try Data(contentsOf: file)
        bytes = bytes.prefix(60) + Data(repeating: 0x41, count: 40)
        try bytes.write(to: file)
        let error = #expect(throws: ShareError.self) { try PrintJobRenderer(items: ["fine text", file]) }
        #expect(error?.kind == .badData)
        #expect(error?.message.hasPrefix("broken photo.png:") == true)
    }

    @Test("a truncated PDF fails naming the item")
    func truncatedPDF() throws {
        let (_, source, folder) = try render(["Soon to be cut short."])
        defer { folder.remove() }
        let whole = try Data(contentsOf: source)
        let error = #expect(throws: ShareError.self) {
            try PrintJobRenderer(items: [DataItem(data: whole.prefix(whole.count / 2), filename: "cut.pdf")])
        }
        #expect(error?.kind == .badData)
        #expect(error?.message.hasPrefix("cut.pdf:") == true)
    }

    @Test("a page selection keeps only those pages")
    func pageSelection() throws {
        let pages = (1...6).map { "Sheet \($0)" }.joined(separator: "\u{0C}")
        let job = try PrintJobRenderer(items: [pages], pageSelection: PageRanges("2-3,6"))
        #expect(job.renderedPageCount == 3)
        let documents = try job.render()
        #expect(try PDFInfo(documents[0].url).pages == 3)
        #expect(try pdfText(documents[0].url, page: 3).contains("Sheet 6"))
        job.removeDocuments()
    }

    @Test("paper names and page ranges parse")
    func parsing() {
        #expect(PaperSize(named: "A4") == .a4)
        #expect(PaperSize(named: "na_letter_8.5x11in") == .letter)
        #expect(PaperSize(named: "napkin") == nil)
        #expect(PageRanges("1-3,5,8-")?.description == "1-3,5,8-2147483647")
        #expect(PageRanges("3-1") == nil)
        #expect(PageRanges("x") == nil)
    }
}

/// Draws a header and "Page N of M" in the footer of every page.
final class NumberingRenderer: PrintPageRenderer {
    var preparedRange: Range<Int>?

    override init() {
        super.init()
        headerHeight = 30
        footerHeight = 30
    }

    override func prepare(forDrawingPages range: Range<Int>) { preparedRange = range }

    override func drawHeaderForPage(at pageIndex: Int, in headerRect: CGRect) {
        currentContext?.drawText(
            "Annual Report — header \(pageIndex + 1)", in: headerRect, font: .boldSystemFont(ofSize: 10), color: .black,
            alignment: .left)
        currentContext?.strokeLine(
            from: CGPoint(x: headerRect.minX, y: headerRect.maxY - 4), to: CGPoint(x: headerRect.maxX, y: headerRect.maxY - 4),
            color: .black, lineWidth: 0.5)
    }

    override func drawFooterForPage(at pageIndex: Int, in footerRect: CGRect) {
        currentContext?.drawText(
            "Page \(pageIndex + 1) of \(numberOfPages)", in: footerRect, font: .systemFont(ofSize: 10), color: .black,
            alignment: .center)
    }
}

/// Two pages drawn without any formatter.
final class DrawnRenderer: PrintPageRenderer {
    override var numberOfPages: Int { 2 }

    override func drawContentForPage(at pageIndex: Int, in contentRect: CGRect) {
        currentContext?.fill(CGRect(x: contentRect.minX, y: contentRect.minY, width: 100, height: 20), color: .blue)
        currentContext?.drawText(
            "drawn page \(pageIndex + 1)", in: contentRect.insetBy(dx: 0, dy: 30), font: PrintFont(family: "Serif", size: 14),
            color: .black, alignment: .left)
    }
}
