import CGtk
import ShareSheet

/// How photos go out (SPEC §13): their size, as a row of linked buttons with the bytes the
/// photos would take at that size once the preparer has said, and whether their location goes
/// with them, as a switch with a sentence saying what happens by default.
@MainActor
final class PhotoOptionsView {
    let widget: Widget
    /// Runs when the person picks a size.
    var onSize: (ImageSize) -> Void = { _ in }
    /// Runs when the person turns "Include location" on or off.
    var onKeepsLocation: (Bool) -> Void = { _ in }

    private let bytes: Widget
    private var size: ImageSize
    private var keepsLocation: Bool
    /// Asks how many bytes the photos would take: at a size, without their location or not.
    private let byteCount: @MainActor (ImageSize, Bool) async -> Int?
    private var counting: Task<Void, Never>?

    /// - Parameters:
    ///   - choices: what the person chose so far; without a size, the photos' own is shown.
    ///   - byteCount: the bytes at a size, removing the location when its flag is true.
    init(choices: ItemChoices, byteCount: @escaping @MainActor (ImageSize, Bool) async -> Int?) {
        self.byteCount = byteCount
        widget = Widgets.vertical(spacing: 6)
        size = choices.imageSize ?? .original
        keepsLocation = choices.keepsLocation == true
        bytes = Widgets.label("", classes: ["dim-label", "numeric"])
        Widgets.show(bytes, false)

        // "Photo size" and the bytes on one line, the sizes under them across the width: the
        // four buttons and a byte count do not fit side by side in a narrow window.
        let sizeTitle = Widgets.label("Photo size")
        gtk_widget_set_hexpand(sizeTitle, 1)
        gtk_label_set_ellipsize(cg_label(bytes), PANGO_ELLIPSIZE_NONE)
        let titleRow = Widgets.horizontal(spacing: 12)
        Widgets.append(titleRow, sizeTitle, bytes)
        let group = cg_radio_group_new(0)!
        gtk_box_set_homogeneous(cg_box(group), 1)
        gtk_widget_add_css_class(group, "linked")
        cg_set_accessible_label(group, "Photo size")
        var first: Widget?
        for option in ImageSize.allCases {
            let button = cg_radio_button_new(option.title)!
            cg_set_accessible_label(button, option.title)
            if let first { gtk_toggle_button_set_group(cg_toggle(button), cg_toggle(first)) } else { first = button }
            if option == size { gtk_toggle_button_set_active(cg_toggle(button), 1) }
            Widgets.append(group, button)
            Signals.connect(button, "toggled") { [weak self] in
                guard let self, gtk_toggle_button_get_active(cg_toggle(button)) != 0, self.size != option else { return }
                self.size = option
                self.onSize(option)
                self.countBytes()
            }
        }
        let sizeRow = Widgets.vertical(spacing: 6)
        Widgets.append(sizeRow, titleRow, group)

        let locationTitle = Widgets.label("Include location")
        gtk_widget_set_hexpand(locationTitle, 1)
        let location = gtk_switch_new()!
        gtk_widget_set_valign(location, GTK_ALIGN_CENTER)
        cg_set_accessible_label(location, "Include location")
        gtk_switch_set_active(cg_switch(location), keepsLocation ? 1 : 0)
        let locationRow = Widgets.horizontal(spacing: 12)
        Widgets.append(locationRow, locationTitle, location)
        let explanation = Widgets.label(
            "Location and camera serial numbers are removed when photos leave this computer.",
            classes: ["dim-label", "caption"], wraps: true)

        Widgets.append(widget, sizeRow, locationRow, explanation)
        Signals.connectNotify(location, property: "active") { [weak self] in
            guard let self else { return }
            self.keepsLocation = gtk_switch_get_active(cg_switch(location)) != 0
            self.onKeepsLocation(self.keepsLocation)
            self.countBytes()
        }
    }

    /// True once the options were shown: the bytes are counted from then on only. Counting
    /// prepares the photo (libvips is loaded for it), which a window that is opening, or a
    /// share that never opens Options, should not pay for.
    private var isShown = false

    /// The options are on screen: counts the bytes for the first time.
    func wasShown() {
        guard !isShown else { return }
        isShown = true
        countBytes()
    }

    /// Asks again how large the photos would be (a size, the location or the items sent
    /// changed), and shows the answer when it is still the question: "Small · 120.0 kB".
    /// No answer (no preparer, no photo among the items sent) shows nothing.
    func countBytes() {
        guard isShown else { return }
        counting?.cancel()
        let size = size
        let removingLocation = !keepsLocation
        counting = Task { [weak self, byteCount] in
            let count = await byteCount(size, removingLocation)
            guard let self, !Task.isCancelled, self.size == size, self.keepsLocation == !removingLocation else { return }
            if let count {
                Widgets.setText(self.bytes, "\(size.title) · \(ByteCountFormat.string(Int64(count)))")
            }
            Widgets.show(self.bytes, count != nil)
        }
    }
}
