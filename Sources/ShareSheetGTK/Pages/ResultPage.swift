import CGtk
import ShareSheet
import Sharing

/// The window's last page when the share needs the person (SPEC §7): a fallback or a failure,
/// drawn as a GNOME status page (an icon, a short title, one plain sentence), with the buttons
/// that fix or follow it up and the technical detail in a collapsed Details expander. It stays
/// until the person closes it: nothing here goes away on a timer.
@MainActor
struct ResultPage {
    let widget: Widget
    private let firstButton: Widget

    /// The page for `story`.
    /// - Parameters:
    ///   - close: Close, and Escape.
    ///   - retry: Retry, when the story offers it.
    ///   - tell: says a sentence for a moment (a follow-up that could not be done).
    ///   - settings: Settings…, when the story offers it.
    ///   - sendWaiting: Retry of what waits in the outbox, with its file.
    init(
        story: ResultStory, close: @escaping @MainActor () -> Void, retry: @escaping @MainActor () -> Void,
        tell: @escaping @MainActor (String) -> Void, settings: @escaping @MainActor () -> Void = {},
        sendWaiting: @escaping @MainActor (String) -> Void = { _ in }
    ) {
        let page = Self.statusPage(icon: story.icon, title: story.title, sentence: story.sentence)
        let buttons = Widgets.horizontal(spacing: 8)
        gtk_widget_set_halign(buttons, GTK_ALIGN_CENTER)
        var made: [Widget] = []
        for action in story.actions {
            let button = Widgets.button(action.title, classes: made.isEmpty && story.actions.count > 1 ? ["suggested-action"] : []) {
                switch action {
                case .open(let path): DesktopFiles.open(path, failed: tell)
                case .showInFiles(let path), .openOutbox(let path): DesktopFiles.showInFiles(path, failed: tell)
                case .retry: retry()
                case .sendWaiting(let path): sendWaiting(path)
                case .settings: settings()
                case .close: close()
                }
            }
            made.append(button)
            Widgets.append(buttons, button)
        }
        Widgets.append(page, buttons)
        if !story.details.isEmpty { Widgets.append(page, Self.details(story.details)) }
        firstButton = made[0]
        widget = page
    }

    /// A cancelled share that kept finished work: what, and where it is, with Close.
    static func kept(
        _ kept: KeptWork, close: @escaping @MainActor () -> Void, tell: @escaping @MainActor (String) -> Void
    ) -> ResultPage {
        let outbox = kept.resume == .outbox
        let place = outbox ? "It waits in the outbox, to be sent with it." : "It is on \(kept.location)."
        let story = ResultStory(
            icon: "dialog-information", title: "Kept \(kept.what)", sentence: place, details: [],
            actions: outbox ? [.openOutbox(path: kept.location), .close] : [.close])
        return ResultPage(story: story, close: close, retry: {}, tell: tell)
    }

    /// Enter presses the most useful button.
    func focus() { gtk_widget_grab_focus(firstButton) }

    /// The icon, the title and the sentence, centred as libadwaita's status page draws them
    /// (AdwStatusPage itself scrolls and sizes its title for a whole window, not a page).
    private static func statusPage(icon: String, title: String, sentence: String) -> Widget {
        let page = Widgets.vertical(spacing: 12)
        Widgets.margins(page, 24)
        gtk_widget_set_valign(page, GTK_ALIGN_CENTER)
        let image = Widgets.themedIcon(icon, size: 64)
        gtk_widget_add_css_class(image, "dim-label")
        Widgets.append(page, image)
        Widgets.append(page, Widgets.label(title, classes: ["title-2"], wraps: true, centered: true))
        let words = Widgets.label(sentence, wraps: true, centered: true)
        gtk_label_set_justify(cg_label(words), GTK_JUSTIFY_CENTER)
        // About a line and a half of a sentence at the default width: read at a glance.
        gtk_label_set_max_width_chars(cg_label(words), 48)
        Widgets.append(page, words)
        return page
    }

    /// The backend's own words and the facts behind the page, collapsed: a person who wants
    /// them opens it; nobody else has to read them.
    private static func details(_ lines: [String]) -> Widget {
        let expander = gtk_expander_new("Details")!
        cg_set_accessible_label(expander, "Details")
        gtk_widget_set_halign(expander, GTK_ALIGN_CENTER)
        gtk_widget_set_margin_top(expander, 6)
        let box = Widgets.vertical(spacing: 6)
        gtk_widget_set_margin_top(box, 6)
        for line in lines {
            let label = Widgets.label(line, classes: ["dim-label", "caption"], wraps: true)
            gtk_label_set_selectable(cg_label(label), 1)
            Widgets.append(box, label)
        }
        gtk_expander_set_child(cg_expander(expander), box)
        return expander
    }
}
