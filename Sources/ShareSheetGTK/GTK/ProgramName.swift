import CGtk

/// The name the desktop knows the window's program by. Without it GLib has no program name
/// (GTK 4's init takes no argv to guess one from), so screen readers announced the application
/// as "Unnamed" and the X11 window class was empty: a window list or a dock could not name or
/// group the window.
@MainActor
enum ProgramName {
    /// What people see in a screen reader's application list and the window class.
    static let name = "ShareSheet"

    /// Names the program before GTK opens the display (GDK reads the name when it makes the
    /// window's class). A program that already named itself (an application presenting the
    /// sheet from inside itself) keeps its own name.
    static func claim() {
        // Asked first: once the program name is set, GLib answers it for the application name.
        let unnamed = g_get_application_name() == nil
        if g_get_prgname() == nil { g_set_prgname(name) }
        if unnamed { g_set_application_name(name) }
    }
}
