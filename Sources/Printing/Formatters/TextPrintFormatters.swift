import Foundation
import ShareSheet

/// Lays out plain text in one font, color and alignment across pages: the
/// UISimpleTextPrintFormatter equivalent. Form feeds start a new page.
open class SimpleTextPrintFormatter: PrintFormatter {
    /// The text to print.
    open var text: String
    /// The font; the system's sans-serif at 12 points by default.
    open var font: PrintFont = .systemFont(ofSize: 12)
    /// The text color; black by default.
    open var color: Color = .black
    /// How lines line up.
    open var textAlignment: PrintTextAlignment = .natural

    let engine = FormatterLayout()

    /// Makes a formatter for `text`.
    public init(text: String) {
        self.text = text
        super.init()
    }

    open override var pageCount: Int { engine.pageCount }
    open override func rectForPage(at pageIndex: Int) -> CGRect { engine.contentRect }
    open override func draw(in rect: CGRect, forPageAt pageIndex: Int) {
        engine.draw(page: pageIndex, in: rect, renderer: printPageRenderer)
    }

    func layoutContent() -> PagedTextLayout.Content { .plain(text) }
}

/// A plain-text file printed as `SimpleTextPrintFormatter` prints its text, read a block at a
/// time while it is laid out and drawn, so its size does not matter.
final class TextFilePrintFormatter: SimpleTextPrintFormatter {
    let url: URL
    let label: String

    init(url: URL, label: String, font: PrintFont) {
        self.url = url
        self.label = label
        super.init(text: "")
        self.font = font
    }

    override func layoutContent() -> PagedTextLayout.Content { .textFile(url, label: label) }
}

/// Lays out basic HTML across pages through Pango: the UIMarkupTextPrintFormatter equivalent.
/// Paragraphs, headings, bold, italic, underline, links (printed with their address), lists,
/// line breaks and preformatted text are kept; other tags keep only their text.
open class MarkupTextPrintFormatter: PrintFormatter {
    /// The HTML to print.
    open var markupText: String
    /// The base font the markup's sizes are relative to; the system's serif at 12 points.
    open var font: PrintFont = PrintFont(family: "Serif", size: 12)
    /// The text color where the markup sets none.
    open var color: Color = .black

    let engine = FormatterLayout()

    /// Makes a formatter for `markupText`.
    public init(markupText: String) {
        self.markupText = markupText
        super.init()
    }

    open override var pageCount: Int { engine.pageCount }
    open override func rectForPage(at pageIndex: Int) -> CGRect { engine.contentRect }
    open override func draw(in rect: CGRect, forPageAt pageIndex: Int) {
        engine.draw(page: pageIndex, in: rect, renderer: printPageRenderer)
    }
}

/// Lays out attributed text: its characters in the formatter's font, with link runs underlined
/// and printed with their address.
final class AttributedTextPrintFormatter: MarkupTextPrintFormatter {
    init(pangoMarkup: String, font: PrintFont) {
        super.init(markupText: "")
        self.font = font
        preparedMarkup = pangoMarkup
    }

    var preparedMarkup = ""
}

/// The paged Pango layout a text formatter keeps between being laid out and being drawn.
final class FormatterLayout {
    private(set) var layout: PagedTextLayout?
    private(set) var contentRect: CGRect = .zero

    var pageCount: Int { layout?.pageCount ?? 0 }

    /// Why drawing stopped short, if it did.
    var drawingFailure: (any Error)? { layout?.drawingFailure }

    func layOut(
        _ content: PagedTextLayout.Content, font: PrintFont, color: Color, alignment: PrintTextAlignment, in rect: CGRect,
        pageLimit: Int, isCancelled: () -> Bool
    ) throws {
        contentRect = rect
        layout = nil
        layout = try PagedTextLayout(
            content: content, font: font, color: color, alignment: alignment, width: rect.width, pageHeight: rect.height,
            pageLimit: pageLimit, isCancelled: isCancelled)
    }

    func draw(page: Int, in rect: CGRect, renderer: PrintPageRenderer?) {
        guard let context = renderer?.currentContext as? CairoPrintContext else { return }
        layout?.draw(page: page, cr: context.cr, origin: rect.origin)
    }
}

extension PrintFormatter {
    /// Lays the formatter out in the content area of pages of `renderer`, when it is one the
    /// printing module knows; other formatters keep their own `pageCount`.
    /// - Throws: `PagedTextLayout.TooManyPages` past `pageLimit`; the layout's errors.
    func layOut(for renderer: PrintPageRenderer, pageLimit: Int, isCancelled: () -> Bool) throws {
        let printable = renderer.printableRect
        let insets = perPageContentInsets
        var rect = CGRect(
            x: printable.minX + insets.left, y: printable.minY + renderer.headerHeight + insets.top,
            width: printable.width - insets.left - insets.right,
            height: printable.height - renderer.headerHeight - renderer.footerHeight - insets.top - insets.bottom)
        if maximumContentWidth > 0 { rect.size.width = min(rect.width, maximumContentWidth) }
        if maximumContentHeight > 0 { rect.size.height = min(rect.height, maximumContentHeight) }
        rect.size.width = max(rect.width, 36)
        rect.size.height = max(rect.height, 36)
        switch self {
        case let attributed as AttributedTextPrintFormatter:
            try attributed.engine.layOut(
                .markup(attributed.preparedMarkup), font: attributed.font, color: attributed.color, alignment: .natural,
                in: rect, pageLimit: pageLimit, isCancelled: isCancelled)
        case let simple as SimpleTextPrintFormatter:
            try simple.engine.layOut(
                simple.layoutContent(), font: simple.font, color: simple.color, alignment: simple.textAlignment, in: rect,
                pageLimit: pageLimit, isCancelled: isCancelled)
        case let markup as MarkupTextPrintFormatter:
            try markup.engine.layOut(
                .markup(HTMLMarkup.pangoMarkup(fromHTML: markup.markupText)), font: markup.font, color: markup.color,
                alignment: .natural, in: rect, pageLimit: pageLimit, isCancelled: isCancelled)
        default:
            break
        }
    }
}

extension PrintFormatter {
    /// Why drawing the formatter's pages stopped short (its file changed or could not be read
    /// again), if it did.
    var drawingFailure: (any Error)? {
        switch self {
        case let simple as SimpleTextPrintFormatter: return simple.engine.drawingFailure
        case let markup as MarkupTextPrintFormatter: return markup.engine.drawingFailure
        default: return nil
        }
    }
}
