import CCairo
import CPango
import Foundation
import ShareSheet

/// Text laid out by Pango at a given width and cut into pages of a given height, a page at a
/// time: memory holds the page being drawn and the piece of text it comes from, never the
/// whole text.
///
/// Making one lays the whole text out once to count its pages (and releases each piece as
/// soon as its lines are placed), so the page count is known before anything is drawn;
/// drawing lays the text out again as the pages are asked for, in order (an earlier page
/// starts over). Form feeds (`\u{0C}`) in plain text start a new page, as they do for `pr`
/// and line printers.
final class PagedTextLayout {
    /// What to lay out.
    enum Content {
        /// Plain text, drawn as is.
        case plain(String)
        /// Pango markup (`<b>`, `<span>`…), as made by `HTMLMarkup`.
        case markup(String)
        /// A plain-text file, read a block at a time; `label` names it in errors.
        case textFile(URL, label: String)
    }

    /// More pages than a job may have: thrown while counting, as soon as the count passes it.
    struct TooManyPages: Error {
        let limit: Int
    }

    private let content: Content
    private let style: Paginator.Style
    private let color: Color

    /// The number of pages the text takes.
    let pageCount: Int

    /// The pages being drawn, and the index of the page it gives next.
    private var drawing: (paginator: Paginator, next: Int)?
    /// Why drawing stopped short (the file changed or could not be read again), if it did.
    private(set) var drawingFailure: (any Error)?

    /// Lays `content` out in `font`, `width` points wide, on pages `pageHeight` points tall,
    /// and counts its pages.
    /// - Throws: `CancellationError` when `isCancelled` turns true between pieces;
    ///   `TooManyPages` past `pageLimit`; `ShareError` when a file cannot be read or is not text.
    init(
        content: Content, font: PrintFont, color: Color, alignment: PrintTextAlignment, width: Double, pageHeight: Double,
        pageLimit: Int = .max, isCancelled: () -> Bool = { false }
    ) throws {
        self.content = content
        self.color = color
        style = Paginator.Style(font: font, alignment: alignment, width: width, pageHeight: pageHeight)
        let counter = try Paginator(content: content, style: style)
        var count = 0
        while try counter.nextPage(isCancelled: isCancelled) != nil {
            count += 1
            if count > pageLimit { throw TooManyPages(limit: pageLimit) }
        }
        pageCount = count
    }

    /// Draws page `index` with its top-left content corner at `origin`.
    func draw(page index: Int, cr: OpaquePointer, origin: CGPoint) {
        guard index >= 0, index < pageCount else { return }
        do {
            if drawing == nil || drawing!.next > index {
                drawing = (try Paginator(content: content, style: style), 0)
            }
            while true {
                guard let page = try drawing!.paginator.nextPage() else {
                    var name = "text"
                    if case .textFile(_, let label) = content { name = label }
                    throw ShareError(.ioError, "\(name): changed while it was printed")
                }
                drawing!.next += 1
                if drawing!.next > index {
                    draw(page, cr: cr, origin: origin)
                    break
                }
            }
        } catch {
            drawingFailure = drawingFailure ?? error
            drawing = nil
        }
        if index == pageCount - 1 { drawing = nil }
    }

    private func draw(_ page: [Paginator.PlacedLine], cr: OpaquePointer, origin: CGPoint) {
        cairo_save(cr)
        cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
        let scale = Double(PANGO_SCALE)
        for placed in page {
            cairo_move_to(cr, origin.x + Double(placed.originX) / scale, origin.y + Double(placed.baseline) / scale)
            pango_cairo_show_layout_line(cr, placed.line)
        }
        cairo_restore(cr)
    }
}

/// Lays text out a piece at a time and hands out its pages in order. The lines of a page stay
/// valid until the next page is asked for; the layouts behind them are released then.
final class Paginator {
    struct Style {
        let font: PrintFont
        let alignment: PrintTextAlignment
        let width: Double
        let pageHeight: Double
    }

    struct PlacedLine {
        let line: UnsafeMutablePointer<PangoLayoutLine>
        /// Where the line starts, in Pango units from the content's left edge.
        let originX: Int32
        /// The baseline, in Pango units from the page's top.
        let baseline: Int32
    }

    private let context: OpaquePointer
    private let description: OpaquePointer
    private let style: Style
    private let pageUnits: Int32
    /// Plain text's pieces, or markup laid out as one piece (nil once taken).
    private var pieces: TextPieces?
    private var markup: String?
    /// Layouts whose lines are on the page being filled or the page last handed out.
    private var layouts: [OpaquePointer] = []
    /// The lines of the layout being placed, from the next one.
    private var iter: OpaquePointer?
    private var ended = false

    init(content: PagedTextLayout.Content, style: Style) throws {
        self.style = style
        pageUnits = Int32(max(1, style.pageHeight) * Double(PANGO_SCALE))
        switch content {
        case .plain(let text): pieces = try TextPieces(.string(text))
        case .textFile(let url, let label): pieces = try TextPieces(.file(url, label: label))
        case .markup(let markup): self.markup = markup
        }
        context = PangoSupport.makeContext()
        description = PangoSupport.fontDescription(style.font)
    }

    deinit {
        if let iter { pango_layout_iter_free(iter) }
        for layout in layouts { g_object_unref(UnsafeMutableRawPointer(layout)) }
        pango_font_description_free(description)
        g_object_unref(UnsafeMutableRawPointer(context))
    }

    /// The next page's lines, one under the other; nil after the last page.
    /// - Throws: `CancellationError` when `isCancelled` turns true between pieces; the text's
    ///   read errors.
    func nextPage(isCancelled: () -> Bool = { false }) throws -> [PlacedLine]? {
        if ended { return nil }
        // The page handed out last was drawn: only the layout still being placed is needed.
        let keep = layouts.last.flatMap { iter == nil ? nil : $0 }
        for layout in layouts where layout != keep { g_object_unref(UnsafeMutableRawPointer(layout)) }
        layouts = keep.map { [$0] } ?? []
        var page: [PlacedLine] = []
        var cursor: Int32 = 0
        while true {
            guard let iter else {
                if isCancelled() { throw CancellationError() }
                switch try nextPiece() {
                case .text(let text, let isMarkup)?:
                    start(text, isMarkup: isMarkup)
                    continue
                case .pageBreak?:
                    return page
                case nil:
                    ended = true
                    return page
                }
            }
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iter, nil, &logical)
            let baseline = pango_layout_iter_get_baseline(iter)
            if let line = pango_layout_iter_get_line_readonly(iter) {
                if !page.isEmpty, cursor + logical.height > pageUnits { return page }
                var own = PangoRectangle()
                pango_layout_line_get_extents(line, nil, &own)
                page.append(PlacedLine(line: line, originX: logical.x - own.x, baseline: cursor + baseline - logical.y))
                cursor += logical.height
            }
            if pango_layout_iter_next_line(iter) == 0 {
                pango_layout_iter_free(iter)
                self.iter = nil
            }
        }
    }

    private enum Next {
        case text(String, isMarkup: Bool)
        case pageBreak
    }

    private func nextPiece() throws -> Next? {
        if let markup {
            self.markup = nil
            return .text(markup, isMarkup: true)
        }
        switch try pieces?.next() {
        case .text(let text)?: return .text(text, isMarkup: false)
        case .pageBreak?: return .pageBreak
        case nil: return nil
        }
    }

    /// Makes the layout of `text` and starts placing its lines.
    private func start(_ text: String, isMarkup: Bool) {
        let layout = pango_layout_new(context)!
        layouts.append(layout)
        pango_layout_set_font_description(layout, description)
        pango_layout_set_width(layout, Int32(max(1, style.width) * Double(PANGO_SCALE)))
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        PangoSupport.apply(style.alignment, to: layout)
        if isMarkup, PangoSupport.isValidMarkup(text) {
            pango_layout_set_markup(layout, text, -1)
        } else {
            pango_layout_set_text(layout, text, -1)
        }
        iter = pango_layout_get_iter(layout)
    }
}

/// The Pango calls shared by layouts and the drawing context.
enum PangoSupport {
    /// A Pango context at 72 dpi with metrics hinting off, so a point is a point on every page.
    static func makeContext() -> OpaquePointer {
        let fontMap = pango_cairo_font_map_get_default()
        let context = pango_font_map_create_context(fontMap)!
        pango_cairo_context_set_resolution(context, 72)
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
        return context
    }

    /// A font description for `font`; the caller frees it.
    static func fontDescription(_ font: PrintFont) -> OpaquePointer {
        let description = pango_font_description_new()!
        pango_font_description_set_family(description, font.family)
        pango_font_description_set_size(description, Int32(font.size * Double(PANGO_SCALE)))
        if font.isBold { pango_font_description_set_weight(description, PANGO_WEIGHT_BOLD) }
        if font.isItalic { pango_font_description_set_style(description, PANGO_STYLE_ITALIC) }
        return description
    }

    static func apply(_ alignment: PrintTextAlignment, to layout: OpaquePointer) {
        switch alignment {
        case .left, .natural: pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
        case .center: pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        case .right: pango_layout_set_alignment(layout, PANGO_ALIGN_RIGHT)
        case .justified:
            pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
            pango_layout_set_justify(layout, 1)
        }
    }

    /// True when Pango accepts `markup`.
    static func isValidMarkup(_ markup: String) -> Bool {
        var error: UnsafeMutablePointer<GError>?
        let ok = pango_parse_markup(markup, -1, 0, nil, nil, nil, &error)
        if let error { g_error_free(error) }
        return ok != 0
    }
}
