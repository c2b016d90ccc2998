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
        gtk_flow_box_set_row_spacing(box, 0)
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
                title: entry.title, icon: Widgets.themedIcon(entry.iconName, size: 24), action: { pick(activity) })
            gtk_flow_box_insert(box, button, -1)
            guard let cell = gtk_widget_get_parent(button) else { continue }
            // The cell passes the focus straight to its button: Tab and the arrow keys land on
            // something with a name, never on an empty grid cell.
            gtk_widget_set_focusable(cell, 0)
            tiles.append(Tile(activity: activity, title: entry.title, button: button, cell: cell))
        }
        moveFocusWithArrows()
    }

    /// The arrow keys move the focus from tile to tile, up and down a line too, and on to the
    /// next row at the grid's edge, as they did along a single row. The grid's own arrow
    /// handling moves a cursor that it only knows once a cell had the focus itself, which ours
    /// never do, so the keys are taken first and passed to GTK's focus chain from the window
    /// (what the window does with an arrow no widget took); the grid's part of the chain
    /// finds the tile left, right, above or below.
    private func moveFocusWithArrows() {
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        let grid = widget
        Signals.connectKeyPressed(UnsafeMutableRawPointer(keys)) { key, _ in
            let directions: [UInt32: GtkDirectionType] = [
                UInt32(GDK_KEY_Left): GTK_DIR_LEFT, UInt32(GDK_KEY_Right): GTK_DIR_RIGHT, UInt32(GDK_KEY_Up): GTK_DIR_UP,
                UInt32(GDK_KEY_Down): GTK_DIR_DOWN, UInt32(GDK_KEY_KP_Left): GTK_DIR_LEFT,
                UInt32(GDK_KEY_KP_Right): GTK_DIR_RIGHT, UInt32(GDK_KEY_KP_Up): GTK_DIR_UP, UInt32(GDK_KEY_KP_Down): GTK_DIR_DOWN,
            ]
            guard let direction = directions[key], let root = gtk_widget_get_root(grid) else { return false }
            gtk_widget_child_focus(UnsafeMutableRawPointer(root).assumingMemoryBound(to: GtkWidget.self), direction)
            return true
        }
        gtk_widget_add_controller(widget, keys)
        // At the grid's edge GTK would ring the bell and keep the focus; let it go on to the
        // next row or the filter instead, as along the old single row. The bell is the default
        // handler, which runs after ours unless the emission stops here.
        Signals.connectHandled(widget, "keynav-failed") { [grid] in
            g_signal_stop_emission_by_name(grid, "keynav-failed")
            return false
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
