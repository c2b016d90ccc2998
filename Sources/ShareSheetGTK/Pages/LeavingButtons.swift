import CGtk

/// The column of a page whose only buttons leave it: its content scrolled above, then Back on
/// the left (hidden when the page cannot go back to the sheet) and Cancel on the right, as a
/// form's buttons sit. AirDrop, Open In and Assign to Contact act from inside their content.
@MainActor
enum LeavingButtons {
    /// The page's column, and the relays the buttons run once the page exists.
    static func column(scrolling content: Widget, canGoBack: Bool) -> (widget: Widget, back: ActionRelay, cancel: ActionRelay) {
        let scroller = Widgets.scroller(content, horizontal: false)
        gtk_widget_set_vexpand(scroller, 1)
        let backRelay = ActionRelay()
        let cancelRelay = ActionRelay()
        let buttons = Widgets.horizontal(spacing: 8)
        Widgets.margins(buttons, 12)
        let backButton = Widgets.button("Back") { backRelay.run() }
        gtk_widget_set_hexpand(backButton, 1)
        gtk_widget_set_halign(backButton, GTK_ALIGN_START)
        Widgets.show(backButton, canGoBack)
        Widgets.append(buttons, backButton, Widgets.button("Cancel") { cancelRelay.run() })
        let column = Widgets.vertical(spacing: 0)
        Widgets.append(column, scroller, buttons)
        return (column, backRelay, cancelRelay)
    }
}
