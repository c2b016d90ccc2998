import CGtk
import Foundation
import ShareSheet

/// The first pages of what a form will make (Print's pages), drawn beside its fields and drawn
/// again when a value they depend on changes (the paper). The drawing happens off the main
/// actor; a change while one is drawn waits for it, and only the newest values are drawn next.
@MainActor
final class PreviewPane {
    let widget: Widget

    private let render: @Sendable (InterfaceValues) async throws -> PreviewPages
    private let pictures: Widget
    private let caption: Widget
    private var drawing = false
    private var waiting: InterfaceValues?
    private var drawn: InterfaceValues?

    /// The width of each page's picture, in pixels.
    static let pageWidth: Int32 = 180

    init(render: @escaping @Sendable (InterfaceValues) async throws -> PreviewPages) {
        self.render = render
        widget = Widgets.vertical(spacing: 8)
        gtk_widget_add_css_class(widget, "sharesheet-preview")
        pictures = Widgets.vertical(spacing: 8)
        caption = Widgets.label("Drawing the pages…", classes: ["dim-label", "caption"], wraps: true, centered: true)
        gtk_widget_set_size_request(widget, Self.pageWidth, -1)
        Widgets.append(widget, pictures, caption)
        cg_set_accessible_label(widget, "Preview")
    }

    /// Draws the pages for `values`, unless they were drawn for the same values already.
    func show(_ values: InterfaceValues) {
        guard values != drawn else { return }
        if drawing {
            waiting = values
            return
        }
        drawing = true
        drawn = values
        Task { [weak self, render] in
            let result: Result<PreviewPages, any Error>
            do { result = .success(try await render(values)) } catch { result = .failure(error) }
            guard let self else { return }
            self.drawing = false
            self.present(result)
            if let next = self.waiting {
                self.waiting = nil
                self.show(next)
            }
        }
    }

    private func present(_ result: Result<PreviewPages, any Error>) {
        Widgets.removeChildren(pictures)
        switch result {
        case .success(let pages):
            for (index, png) in pages.images.enumerated() {
                guard let picture = Self.picture(png) else { continue }
                cg_set_accessible_label(picture, "Page \(index + 1) of \(pages.pageCount)")
                Widgets.append(pictures, picture)
            }
            let count = pages.pageCount == 1 ? "1 page" : "\(pages.pageCount) pages"
            Widgets.setText(caption, pages.images.count < pages.pageCount ? "\(count); the first are shown" : count)
        case .failure:
            // Printing says why the items cannot be printed; the preview only says it has none.
            Widgets.setText(caption, "No preview")
        }
    }

    /// A framed picture of one page.
    private static func picture(_ png: Data) -> Widget? {
        let texture = png.withUnsafeBytes { bytes -> OpaquePointer? in
            let data = g_bytes_new(bytes.baseAddress, gsize(bytes.count))
            defer { g_bytes_unref(data) }
            return gdk_texture_new_from_bytes(data, nil)
        }
        guard let texture else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
        let picture = gtk_picture_new_for_paintable(texture)!
        gtk_picture_set_can_shrink(OpaquePointer(picture), 1)
        gtk_widget_set_size_request(picture, pageWidth, -1)
        gtk_widget_add_css_class(picture, "sharesheet-page")
        return picture
    }
}
