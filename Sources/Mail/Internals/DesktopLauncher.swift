import CGIO
import Foundation
import GLibErrors
import ShareSheet

/// Hands a URL (`mailto:`, `sms:`) to the application the desktop registered for its scheme
/// (`x-scheme-handler/…` in `mimeapps.list`), through GIO.
enum DesktopLauncher {
    /// True when some application is registered for `scheme`.
    static func hasHandler(forScheme scheme: String) -> Bool {
        guard let info = g_app_info_get_default_for_uri_scheme(scheme) else { return false }
        g_object_unref(UnsafeMutableRawPointer(info))
        return true
    }

    /// The desktop file ID (`org.gnome.Evolution.desktop`) of the application registered for
    /// `scheme`, or nil when there is none.
    static func handlerID(forScheme scheme: String) -> String? {
        guard let info = g_app_info_get_default_for_uri_scheme(scheme) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(info)) }
        return g_app_info_get_id(info).map { String(cString: $0) }
    }

    /// Launches the default handler of `url`'s scheme with it.
    /// - Throws: `ShareError(.unavailable)` with GLib's reason when none is registered or it fails.
    static func open(_ url: String, what: String) throws {
        var error: UnsafeMutablePointer<GError>?
        guard g_app_info_launch_default_for_uri(url, nil, &error) != 0 else {
            let reason = GLibError(taking: &error, call: "g_app_info_launch_default_for_uri").message
            throw ShareError(.unavailable, "\(what): no application takes \(url.prefix(while: { $0 != ":" })): links (\(reason))")
        }
    }
}
