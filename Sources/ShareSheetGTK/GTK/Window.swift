import CGtk
import Foundation

/// The top-level window: a header bar with a title and subtitle, a toast overlay, and one page
/// at a time. Escape and the close button both ask `onLeave`; the presenter decides what leaving
/// means at each step and destroys the window itself.
@MainActor
final class Window {
    let widget: Widget
    /// Escape or the close button.
    var onLeave: () -> Void = {}
    /// Asked first on Escape (not on the close button): true when it closed something open in
    /// the page (a list of completions), so Escape does not leave the step as well.
    var closesOpenList: () -> Bool = { false }
    /// The window is gone.
    var onDestroyed: () -> Void = {}

    private let overlay: Widget
    private let content: Widget
    private let heading: Widget
    private var page: Widget?
    private var pageWillLeave: (() -> Void)?
    private var destroyed = false

    init(title: String) {
        widget = adw_window_new()
        gtk_window_set_title(cg_window(widget), title)
        gtk_window_set_default_size(cg_window(widget), 540, 600)
        // Phones running Phosh are 360 px wide: nothing in the window may need more.
        gtk_widget_set_size_request(widget, 320, -1)
        heading = adw_window_title_new(title, nil)
        let bar = adw_header_bar_new()!
        adw_header_bar_set_title_widget(cg_header_bar(bar), heading)
        content = Widgets.vertical(spacing: 0)
        gtk_widget_set_vexpand(content, 1)
        let column = Widgets.vertical(spacing: 0)
        Widgets.append(column, bar, content)
        overlay = adw_toast_overlay_new()
        adw_toast_overlay_set_child(cg_toast_overlay(overlay), column)
        adw_window_set_content(cg_adw_window(widget), overlay)

        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        Signals.connectKeyPressed(UnsafeMutableRawPointer(keys)) { [weak self] key, _ in
            guard key == UInt32(GDK_KEY_Escape), let self else { return false }
            if self.closesOpenList() { return true }
            self.onLeave()
            return true
        }
        gtk_widget_add_controller(widget, keys)
        Signals.connectHandled(widget, "close-request") { [weak self] in
            self?.onLeave()
            // The presenter destroys the window when the step allows it.
            return true
        }
        Signals.connect(widget, "destroy") { [weak self] in
            guard let self, !self.destroyed else { return }
            self.destroyed = true
            self.onDestroyed()
        }
    }

    /// Replaces the page and the header's title; `willLeave` runs when the page is replaced.
    func show(_ newPage: Widget, title: String, subtitle: String?, willLeave: (() -> Void)? = nil) {
        pageWillLeave?()
        pageWillLeave = willLeave
        if let page { gtk_box_remove(cg_box(content), page) }
        page = newPage
        gtk_widget_set_vexpand(newPage, 1)
        Widgets.append(content, newPage)
        adw_window_title_set_title(OpaquePointer(heading), title)
        adw_window_title_set_subtitle(OpaquePointer(heading), subtitle ?? "")
    }

    /// Keeps the window above another application's: `x11:XID` (hexadecimal with 0x, or
    /// decimal) or `wayland:HANDLE`. A parent of another kind than the display is ignored.
    @discardableResult
    func makeTransient(for parent: String) -> Bool {
        if parent.hasPrefix("x11:") {
            let id = parent.dropFirst(4)
            let number = id.hasPrefix("0x") ? UInt(id.dropFirst(2), radix: 16) : UInt(id)
            guard let number else { return false }
            return cg_set_transient_for_x11(widget, number) != 0
        }
        if parent.hasPrefix("wayland:") {
            return cg_set_transient_for_wayland(widget, String(parent.dropFirst(8))) != 0
        }
        return false
    }

    /// A short message over the page; keep what it returns to take it away before its time.
    @discardableResult
    func toast(_ message: String) -> Toast {
        let toast = adw_toast_new(message)
        // The overlay takes the reference it is given: one more for the caller's handle.
        g_object_ref(UnsafeMutableRawPointer(toast))
        adw_toast_overlay_add_toast(cg_toast_overlay(overlay), toast)
        return Toast(toast)
    }

    func destroy() {
        guard !destroyed else { return }
        gtk_window_destroy(cg_window(widget))
    }
}

/// A toast shown by `Window.toast(_:)`, which can be taken away before its time.
@MainActor
final class Toast {
    private let toast: OpaquePointer?

    init(_ toast: OpaquePointer?) { self.toast = toast }

    /// Takes the toast away now (nothing happens when it is gone already).
    func dismiss() { adw_toast_dismiss(toast) }

    isolated deinit { g_object_unref(UnsafeMutableRawPointer(toast)) }
}
