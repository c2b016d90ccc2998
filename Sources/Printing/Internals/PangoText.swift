import CCairo
import CPango
import Foundation
import ShareSheet

/// Text laid out once by Pango at a given width, then cut into pages of a given height.
///
/// Form feeds (`\u{0C}`) in plain text start a new page, as they do for `pr` and line printers.
/// The page count is known as soon as the layout exists, before anything is drawn.
final class PagedTextLayout {
    /// What to lay out.
    enum Content {
        /// Plain text, drawn as is.
        case plain(String)
        /// Pango markup (`<b>`, `<span>`…), as made by `HTMLMarkup`.
        case markup(String)
    }

    private struct PlacedLine {
        let line: UnsafeMutablePointer<PangoLayoutLine>
        /// Where the line starts, in Pango units from the content's left edge.
        let originX: Int32
        /// The baseline, in Pango units from the page's top.
        let baseline: Int32
    }

    private let context: OpaquePointer
    private var layouts: [OpaquePointer] = []
    private var pages: [[PlacedLine]] = []
    private let color: Color

    /// The number of pages the text takes.
    var pageCount: Int { pages.count }

    /// Plain text is laid out in chunks of this many lines, continuing on the same page: a long
    /// text can be cancelled between chunks, and Pango's cost per line grows with the length of
    /// its layout (it measures the whole text again for each line), so small layouts are faster.
    static let chunkLines = 64

    private var current: [PlacedLine] = []
    private var cursor: Int32 = 0

    /// Lays `content` out in `font`, `width` points wide, on pages `pageHeight` points tall.
    /// - Throws: `CancellationError` when `isCancelled` turns true between chunks.
    init(
        content: Content, font: PrintFont, color: Color, alignment: PrintTextAlignment, width: Double, pageHeight: Double,
        isCancelled: () -> Bool = { false }
    ) throws {
        self.color = color
        context = PangoSupport.makeContext()
        let description = PangoSupport.fontDescription(font)
        defer { pango_font_description_free(description) }
        let sections: [String]
        switch content {
        case .plain(let text):
            var parts = text.split(separator: "\u{0C}", omittingEmptySubsequences: false).map(String.init)
            if parts.count > 1, parts.last?.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty == true {
                parts.removeLast()
            }
            sections = parts
        case .markup(let markup):
            sections = [markup]
        }
        let pageUnits = Int32(max(1, pageHeight) * Double(PANGO_SCALE))
        for (sectionIndex, section) in sections.enumerated() {
            if sectionIndex > 0 { breakPage() }
            let chunks: [String]
            switch content {
            case .plain:
                let lines = section.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
                chunks = stride(from: 0, to: max(lines.count, 1), by: Self.chunkLines).map { start in
                    lines[start..<min(start + Self.chunkLines, lines.count)].joined(separator: "\n")
                }
            case .markup:
                chunks = [section]
            }
            for chunk in chunks {
                if isCancelled() { throw CancellationError() }
                let layout = pango_layout_new(context)!
                layouts.append(layout)
                pango_layout_set_font_description(layout, description)
                pango_layout_set_width(layout, Int32(max(1, width) * Double(PANGO_SCALE)))
                pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
                PangoSupport.apply(alignment, to: layout)
                switch content {
                case .plain:
                    pango_layout_set_text(layout, chunk, -1)
                case .markup:
                    if PangoSupport.isValidMarkup(chunk) {
                        pango_layout_set_markup(layout, chunk, -1)
                    } else {
                        pango_layout_set_text(layout, chunk, -1)
                    }
                }
                place(layout, pageUnits: pageUnits)
            }
        }
        breakPage()
        if pages.isEmpty { pages = [[]] }
    }

    deinit {
        for layout in layouts { g_object_unref(UnsafeMutableRawPointer(layout)) }
        g_object_unref(UnsafeMutableRawPointer(context))
    }

    /// Ends the page being filled (a form feed, or the end of the text).
    private func breakPage() {
        pages.append(current)
        current = []
        cursor = 0
    }

    /// Places the lines of `layout` one under the other, starting a page when one is full.
    private func place(_ layout: OpaquePointer, pageUnits: Int32) {
        guard let iter = pango_layout_get_iter(layout) else { return }
        defer { pango_layout_iter_free(iter) }
        repeat {
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iter, nil, &logical)
            let baseline = pango_layout_iter_get_baseline(iter)
            guard let line = pango_layout_iter_get_line_readonly(iter) else { continue }
            var own = PangoRectangle()
            pango_layout_line_get_extents(line, nil, &own)
            if !current.isEmpty, cursor + logical.height > pageUnits { breakPage() }
            current.append(PlacedLine(line: line, originX: logical.x - own.x, baseline: cursor + baseline - logical.y))
            cursor += logical.height
        } while pango_layout_iter_next_line(iter) != 0
    }

    /// Draws page `index` with its top-left content corner at `origin`.
    func draw(page index: Int, cr: OpaquePointer, origin: CGPoint) {
        guard pages.indices.contains(index) else { return }
        cairo_save(cr)
        cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
        let scale = Double(PANGO_SCALE)
        for placed in pages[index] {
            cairo_move_to(cr, origin.x + Double(placed.originX) / scale, origin.y + Double(placed.baseline) / scale)
            pango_cairo_show_layout_line(cr, placed.line)
        }
        cairo_restore(cr)
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
