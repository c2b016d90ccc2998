import CGtk
import ShareSheet
import Sharing

/// The window's last page: a failure kept on screen with its message and a Close button, or a
/// fallback said in one line before the window closes on its own.
@MainActor
struct ResultPage {
    let widget: Widget
    private let closeButton: Widget

    /// A failure: the message, how to fix it when known (a plain sentence: `plainAdvice`), and Close.
    static func failure(message: String, hint: String?, close: @escaping @MainActor () -> Void) -> ResultPage {
        var lines = [(message, ["title-4"])]
        if let hint { lines.append(("To change this: \(hint)", ["dim-label"])) }
        return ResultPage(icon: "dialog-error", lines: lines, close: close)
    }

    /// A fallback: what the activity did instead, and how to change it in a plain sentence.
    static func fallback(_ fallback: ActivityFallback, close: @escaping @MainActor () -> Void) -> ResultPage {
        var lines = [(fallback.message, ["title-4"])]
        if let advice = fallback.plainAdvice { lines.append(("To change this: \(advice)", ["dim-label"])) }
        return ResultPage(icon: "dialog-information", lines: lines, close: close)
    }

    /// A cancelled share that kept finished work: what, and where it is.
    static func kept(_ kept: KeptWork, close: @escaping @MainActor () -> Void) -> ResultPage {
        let place = kept.resume == .outbox ? "It waits in the outbox, to be sent with it." : "It is on \(kept.location)."
        return ResultPage(icon: "dialog-information", lines: [("Kept \(kept.what)", ["title-4"]), (place, ["dim-label"])], close: close)
    }

    private init(icon: String, lines: [(String, [String])], close: @escaping @MainActor () -> Void) {
        let page = Widgets.vertical(spacing: 12)
        Widgets.margins(page, 18)
        gtk_widget_set_valign(page, GTK_ALIGN_CENTER)
        Widgets.append(page, Widgets.themedIcon(icon, size: 48))
        for (text, classes) in lines {
            Widgets.append(page, Widgets.label(text, classes: classes, wraps: true, centered: true))
        }
        closeButton = Widgets.button("Close", action: close)
        gtk_widget_set_halign(closeButton, GTK_ALIGN_CENTER)
        Widgets.append(page, closeButton)
        widget = page
    }

    func focus() { gtk_widget_grab_focus(closeButton) }
}
