import CCairo
import CPango
import Foundation
import ShareSheet

/// `PrintContext` on a Cairo page: what a `PrintPageRenderer` draws with.
final class CairoPrintContext: PrintContext {
    let cr: OpaquePointer
    let paperRect: CGRect

    init(cr: OpaquePointer, paperRect: CGRect) {
        self.cr = cr
        self.paperRect = paperRect
    }

    func drawText(_ text: String, in rect: CGRect, font: PrintFont, color: Color, alignment: PrintTextAlignment) {
        guard let layout = pango_cairo_create_layout(cr) else { return }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        let context = pango_layout_get_context(layout)
        pango_cairo_context_set_resolution(context, 72)
        let description = PangoSupport.fontDescription(font)
        pango_layout_set_font_description(layout, description)
        pango_font_description_free(description)
        pango_layout_set_width(layout, Int32(max(1, rect.width) * Double(PANGO_SCALE)))
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        PangoSupport.apply(alignment, to: layout)
        pango_layout_set_text(layout, text, -1)
        cairo_save(cr)
        cairo_rectangle(cr, rect.minX, rect.minY, rect.width, rect.height)
        cairo_clip(cr)
        cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
        cairo_move_to(cr, rect.minX, rect.minY)
        pango_cairo_show_layout(cr, layout)
        cairo_restore(cr)
    }

    func fill(_ rect: CGRect, color: Color) {
        cairo_save(cr)
        cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
        cairo_rectangle(cr, rect.minX, rect.minY, rect.width, rect.height)
        cairo_fill(cr)
        cairo_restore(cr)
    }

    func strokeLine(from start: CGPoint, to end: CGPoint, color: Color, lineWidth: Double) {
        cairo_save(cr)
        cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
        cairo_set_line_width(cr, lineWidth)
        cairo_move_to(cr, start.x, start.y)
        cairo_line_to(cr, end.x, end.y)
        cairo_stroke(cr)
        cairo_restore(cr)
    }

    func drawImage(_ image: Image, in rect: CGRect) throws {
        guard let data = image.encodedData else {
            throw PrintFailure(call: "read", reason: "the image's bytes cannot be read")
        }
        let decoded = try DecodedImage(data: data)
        decoded.draw(cr: cr, fittingIn: rect)
    }
}
