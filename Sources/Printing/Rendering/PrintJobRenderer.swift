import Foundation
import ShareSheet
import ShareSheetSystem

/// One document of a print job: a PDF file, in job order.
public struct PrintDocument: Sendable {
    /// The PDF on disk (in the job's temporary folder until it is saved or sent).
    public let url: URL
    /// What the document was made from ("report.txt", "photo.jpg + 2 more").
    public let name: String
    /// Its pages, when known (always for rendered documents).
    public let pageCount: Int?
    /// True for a PDF item passed through byte for byte.
    public let isPassThrough: Bool
}

/// Renders printable items into PDF documents: consecutive items that need drawing become one
/// PDF; each PDF item stays its own document, unchanged.
///
/// Every item is checked before anything is drawn, so a bad item fails the job before a page
/// is rendered or a printer is contacted. The page count is known before the first page is
/// drawn (`plan`).
///
/// Text is laid out and drawn a page at a time, and a text file is read a block at a time, so
/// memory does not grow with the length of a text; a job of more than `maximumPageCount` pages
/// is refused before anything is drawn.
public final class PrintJobRenderer {
    /// The most pages one job may have: 100,000 (200 reams of paper; about 300 MB of plain
    /// text in the 10-point monospace face text files print in). Counting the pages of a larger
    /// text stops as soon as the count passes it.
    public static let maximumPageCount = 100_000

    /// The job's options.
    public let info: PrintInfo
    /// The paper every rendered page uses (turned for landscape jobs; images choose their own
    /// orientation).
    public let paper: PaperSize
    /// Pages to keep (1-based over the rendered pages); nil keeps all.
    public let pageSelection: PageRanges?

    private let items: [PrintableItem]
    private let folder: URL

    /// Checks `items` and lays them out for `paper`, so the page count is known.
    /// - Parameters:
    ///   - pageLimit: the most pages the job may have (`maximumPageCount` unless given).
    ///   - isCancelled: checked between items and between chunks of a long text.
    /// - Throws: `ShareError` naming the first item that cannot be printed or that takes the
    ///   job past `pageLimit` pages; `CancellationError`.
    public init(
        items: [Any], info: PrintInfo? = nil, paper: PaperSize = .a4, pageSelection: PageRanges? = nil,
        pageLimit: Int = PrintJobRenderer.maximumPageCount, isCancelled: () -> Bool = { false }
    ) throws {
        self.info = info ?? items.lazy.compactMap { $0 as? PrintInfo }.first ?? PrintInfo()
        self.paper = paper
        self.pageSelection = pageSelection
        self.items = try items.compactMap { item in
            if isCancelled() { throw CancellationError() }
            return try PrintableItem.make(from: item)
        }
        guard !self.items.isEmpty else { throw ShareError(.badData, "print: nothing printable among the items") }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "\(Self.folderPrefix)\(getpid()).\(UUID().uuidString)", isDirectory: true)
        var pages = 0
        for item in self.items {
            let label = item.label
            if case .renderer(let renderer, _) = item {
                let count: Int
                do {
                    count = try Self.layOut(
                        renderer, paper: paper.size(for: self.info.orientation), pageLimit: pageLimit - pages,
                        isCancelled: isCancelled)
                } catch is PagedTextLayout.TooManyPages {
                    throw Self.tooManyPages(label, limit: pageLimit)
                }
                if count == 0 { throw ShareError(.badData, "\(label): it has no pages to print") }
            }
            pages += item.pageCount ?? 0
            if pages > pageLimit { throw Self.tooManyPages(label, limit: pageLimit) }
        }
    }

    private static func tooManyPages(_ label: String, limit: Int) -> ShareError {
        ShareError(.badData, "\(label): more than \(limit) pages, the most one print job may have")
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// The start of a job's folder name in the temporary folder: `sharesheet-print-PID.UUID`
    /// (before #15 `sharesheet-print-UUID`, without the PID).
    static let folderPrefix = "sharesheet-print-"

    /// Removes job folders of ours that a killed print left in `temporary`: at once when the
    /// PID in the name is no running process, and for names without a PID once they are
    /// untouched for 36 hours.
    static func removeAbandonedFolders(in temporary: URL, now: Date = Date()) {
        WriterProcess.removeAbandoned(in: temporary, prefix: folderPrefix, folders: true, now: now)
    }

    /// Pages per item, in order (nil for a PDF whose pages could not be counted).
    public var pageCounts: [Int?] {
        items.map(\.pageCount)
    }

    /// The pages that will be drawn (selection applied; pass-through PDFs not counted).
    public var renderedPageCount: Int {
        var number = 0
        var kept = 0
        for (item, count) in zip(items, pageCounts) {
            if case .pdf = item { continue }
            for _ in 0..<(count ?? 0) {
                number += 1
                if pageSelection?.contains(number) ?? true { kept += 1 }
            }
        }
        return kept
    }

    /// The job's name, made safe for a file name.
    public var jobName: String { info.jobName }

    /// Renders every document.
    /// - Parameters:
    ///   - onPage: called after each page is drawn, with the pages drawn so far.
    ///   - isCancelled: checked between pages; when it turns true rendering stops with
    ///     `CancellationError` and the temporary files are removed.
    public func render(onPage: (Int) -> Void = { _ in }, isCancelled: () -> Bool = { false }) throws -> [PrintDocument] {
        Self.removeAbandonedFolders(in: folder.deletingLastPathComponent())
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var documents: [PrintDocument] = []
        var pending: [PrintableItem] = []
        var drawn = 0
        var pageNumber = 0

        func flush() throws {
            guard !pending.isEmpty else { return }
            let url = folder.appendingPathComponent("document-\(documents.count + 1).pdf")
            let writer = try CairoPDFWriter(path: url.path)
            for item in pending {
                switch item {
                case .image(let image, _):
                    pageNumber += 1
                    guard pageSelection?.contains(pageNumber) ?? true else { continue }
                    if isCancelled() { throw CancellationError() }
                    let size = image.width > image.height ? CGSize(width: paper.size.height, height: paper.size.width) : paper.size
                    writer.beginPage(size: size)
                    image.draw(cr: writer.cr, fittingIn: CGRect(origin: .zero, size: size).insetBy(dx: 18, dy: 18))
                    try writer.endPage()
                    drawn += 1
                    onPage(drawn)
                case .renderer(let renderer, _):
                    let count = renderer.numberOfPages
                    renderer.prepare(forDrawingPages: 0..<count)
                    for index in 0..<count {
                        pageNumber += 1
                        guard pageSelection?.contains(pageNumber) ?? true else { continue }
                        if isCancelled() { throw CancellationError() }
                        writer.beginPage(size: renderer.paperRect.size)
                        renderer.currentContext = CairoPrintContext(cr: writer.cr, paperRect: renderer.paperRect)
                        renderer.drawPage(at: index, in: renderer.printableRect)
                        renderer.currentContext = nil
                        if let failure = renderer.printFormatters?.lazy.compactMap(\.drawingFailure).first { throw failure }
                        try writer.endPage()
                        drawn += 1
                        onPage(drawn)
                    }
                case .pdf:
                    break
                }
            }
            let pages = writer.pageCount
            try writer.finish()
            if pages > 0 {
                documents.append(
                    PrintDocument(url: url, name: Self.name(of: pending), pageCount: pages, isPassThrough: false))
            } else {
                try? FileManager.default.removeItem(at: url)
            }
            pending = []
        }

        do {
            for item in items {
                if case .pdf(let data, let label, let count) = item {
                    try flush()
                    if isCancelled() { throw CancellationError() }
                    let url = folder.appendingPathComponent("document-\(documents.count + 1).pdf")
                    try data.write(to: url)
                    documents.append(PrintDocument(url: url, name: label, pageCount: count, isPassThrough: true))
                } else {
                    pending.append(item)
                }
            }
            try flush()
        } catch {
            try? FileManager.default.removeItem(at: folder)
            if let failure = error as? PrintFailure { throw ShareError(.ioError, "print: \(failure)") }
            throw error
        }
        if documents.isEmpty { throw ShareError(.badData, "print: the page selection leaves no page to print") }
        return documents
    }

    /// Removes the rendered documents.
    public func removeDocuments() { try? FileManager.default.removeItem(at: folder) }

    private static func name(of items: [PrintableItem]) -> String {
        guard let first = items.first else { return "document" }
        return items.count == 1 ? first.label : "\(first.label) + \(items.count - 1) more"
    }

    /// Gives `renderer` its paper and lays its formatters out; returns its page count.
    @discardableResult
    /// - Throws: `PagedTextLayout.TooManyPages` when a formatter passes `pageLimit` pages.
    static func layOut(_ renderer: PrintPageRenderer, paper: CGSize, pageLimit: Int, isCancelled: () -> Bool) throws -> Int {
        renderer.paperRect = CGRect(origin: .zero, size: paper)
        renderer.printableRect = renderer.paperRect.insetBy(dx: 18, dy: 18)
        for formatter in renderer.printFormatters ?? [] {
            formatter.printPageRenderer = renderer
            try formatter.layOut(for: renderer, pageLimit: pageLimit, isCancelled: isCancelled)
        }
        return renderer.numberOfPages
    }
}
