import CGtk

/// The few looks libadwaita's stylesheet does not have: activity icons on a round tile, as the
/// sheet's rows draw them. Colours come from libadwaita's named colours, so the dark and light
/// styles the desktop asks for both work.
@MainActor
enum Stylesheet {
    static let css = """
        .sharesheet-activity-icon {
            padding: 14px;
            border-radius: 999px;
            background-color: alpha(@window_fg_color, 0.08);
        }
        """

    static func install() {
        guard let display = gdk_display_get_default() else { return }
        let provider = gtk_css_provider_new()
        gtk_css_provider_load_from_data(provider, css, -1)
        gtk_style_context_add_provider_for_display(
            display, OpaquePointer(provider), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        g_object_unref(provider)
    }
}
