import CGtk
import ShareSheet
import Sharing

/// One row of the sheet (Share or Actions) as tiles that wrap onto as many lines as the width
/// needs. The iOS sheet scrolls its row sideways, but there a finger's swipe is the cue; in a
/// desktop window a tile past the edge is simply missed, and the window has room to show them
/// all. The grid is homogeneous: every tile takes the widest one's width (`Widgets.iconButton`
/// caps captions at about ten characters, on two lines), so the columns line up.
@MainActor
final class ActivityGrid {
    /// One activity's tile: its button, and the grid cell that holds it (hidden when the filter
    /// leaves the activity out, so the tiles after it close the gap).
    struct Tile {
        let activity: Activity
        let title: String
        let button: Widget
        let cell: Widget
    }

    /// The grid (a GtkFlowBox).
    let widget: Widget
    /// The tiles in the controller's order.
    private(set) var tiles: [Tile] = []

    /// - Parameters:
    ///   - heading: the row's heading ("Share", "Actions"), its accessible name too.
    ///   - activities: the row's activities in the controller's order.
    ///   - names: their titles and icons.
    ///   - pick: runs with the activity whose tile the person clicked or activated.
    init(heading: String, activities: [Activity], names: ActivityNames, pick: @escaping @MainActor (Activity) -> Void) {
        widget = gtk_flow_box_new()
        let box = OpaquePointer(widget)
        // The buttons act on a click; a selected cell would only add a second highlight.
        gtk_flow_box_set_selection_mode(box, GTK_SELECTION_NONE)
        gtk_widget_add_css_class(widget, "sharesheet-activity-grid")
        gtk_flow_box_set_homogeneous(box, 1)
        gtk_flow_box_set_column_spacing(box, 4)
        gtk_flow_box_set_row_spacing(box, 4)
        gtk_flow_box_set_min_children_per_line(box, 1)
        // Enough for every activity on one line in a wide window; the width decides the rest.
        gtk_flow_box_set_max_children_per_line(box, 16)
        // The grid starts at the left edge under its heading; a short last line stays left too.
        gtk_widget_set_halign(widget, GTK_ALIGN_START)
        gtk_widget_set_valign(widget, GTK_ALIGN_START)
        // Heard as "Share, grid" before its buttons; and should the focus ever fall back on
        // the grid itself, it is on something with a name.
        cg_set_accessible_label(widget, heading)
        for activity in activities {
            let entry = names.entry(for: activity)
            let button = Widgets.iconButton(
                title: entry.title, icon: Widgets.themedIcon(entry.iconName, size: 32), action: { pick(activity) })
            gtk_flow_box_insert(box, button, -1)
            guard let cell = gtk_widget_get_parent(button) else { continue }
            // The cell passes the focus straight to its button: Tab and the arrow keys land on
            // something with a name, never on an empty grid cell.
            gtk_widget_set_focusable(cell, 0)
            tiles.append(Tile(activity: activity, title: entry.title, button: button, cell: cell))
        }
    }

    /// Shows the tiles whose title contains `typed` (all when it is empty); true when one is.
    @discardableResult
    func filter(_ typed: String) -> Bool {
        var anyShown = false
        for tile in tiles {
            let shown = Self.matches(tile.title, typed)
            Widgets.show(tile.cell, shown)
            anyShown = anyShown || shown
        }
        return anyShown
    }

    /// The first tile the filter keeps for `typed`, worked out from the text itself rather
    /// than from what is on screen, which the search entry updates only after a pause.
    func firstMatch(_ typed: String) -> Tile? {
        tiles.first { Self.matches($0.title, typed) }
    }

    /// The first tile on screen, for the first focus.
    var firstShown: Tile? {
        tiles.first { gtk_widget_get_visible($0.cell) != 0 }
    }

    /// Whether an activity titled `title` stays when the person has typed `typed`.
    static func matches(_ title: String, _ typed: String) -> Bool {
        typed.isEmpty || title.localizedCaseInsensitiveContains(typed)
    }
}
