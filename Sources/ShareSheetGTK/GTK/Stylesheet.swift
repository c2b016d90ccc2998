import CGtk

/// The few looks libadwaita's stylesheet does not have: activity icons on a round tile, as the
/// sheet's rows draw them (the grid's cells without padding of their own, and the tiles' buttons
/// with little at the sides: the caption's width makes the tile's), the suggestions' round avatars, and the round check on each item of
/// the item strip (a filled accent disc when the item is sent, an empty ring when it is not). Tiles take libadwaita's named
/// colours, so the dark and light styles the desktop asks for both work; initials sit on one of
/// eight colours of the GNOME palette, light text on each (dark text on yellow), as
/// AdwAvatar's do.
@MainActor
enum Stylesheet {
    static let css = """
        .sharesheet-activity-icon {
            padding: 12px;
            border-radius: 999px;
            background-color: alpha(@window_fg_color, 0.08);
        }
        .sharesheet-activity-grid > flowboxchild {
            padding: 0;
        }
        button.sharesheet-activity-tile {
            padding: 2px;
        }
        .sharesheet-suggestion {
            padding-left: 2px;
            padding-right: 2px;
        }
        .sharesheet-avatar {
            border-radius: 999px;
        }
        .sharesheet-avatar-icon {
            background-color: alpha(@window_fg_color, 0.08);
        }
        .sharesheet-avatar-initials {
            font-weight: bold;
            font-size: 20px;
        }
        .sharesheet-attachment-thumbnail {
            border-radius: 6px;
        }
        .sharesheet-avatar-small .sharesheet-avatar-initials {
            font-size: 12px;
        }
        .sharesheet-avatar-color0 { background-color: #1c71d8; color: #ffffff; }
        .sharesheet-avatar-color1 { background-color: #26a269; color: #ffffff; }
        .sharesheet-avatar-color2 { background-color: #f6d32d; color: #3d3846; }
        .sharesheet-avatar-color3 { background-color: #e66100; color: #ffffff; }
        .sharesheet-avatar-color4 { background-color: #c01c28; color: #ffffff; }
        .sharesheet-avatar-color5 { background-color: #9141ac; color: #ffffff; }
        .sharesheet-avatar-color6 { background-color: #986a44; color: #ffffff; }
        .sharesheet-avatar-color7 { background-color: #5e5c64; color: #ffffff; }
        button.sharesheet-item-tile {
            padding: 4px;
        }
        button.sharesheet-item-tile:checked {
            background-color: transparent;
        }
        button.sharesheet-item-tile:checked:hover {
            background-color: alpha(currentColor, 0.07);
        }
        .sharesheet-item-icon {
            border-radius: 8px;
            background-color: alpha(@window_fg_color, 0.08);
        }
        .sharesheet-item-checked, .sharesheet-item-unchecked {
            min-width: 12px;
            min-height: 12px;
            padding: 3px;
            margin: 3px;
            border-radius: 999px;
        }
        .sharesheet-item-checked {
            background-color: @accent_bg_color;
            color: @accent_fg_color;
            border: 1px solid @window_bg_color;
        }
        .sharesheet-item-unchecked {
            background-color: alpha(@window_bg_color, 0.6);
            border: 1px solid alpha(@window_fg_color, 0.5);
        }
        .sharesheet-avatar-badge {
            border-radius: 999px;
            background-color: @window_bg_color;
            border: 1px solid alpha(@window_fg_color, 0.15);
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
