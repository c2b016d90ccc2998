import CGtk
import Foundation

/// Opens a file, or shows it in the file manager, the way the desktop does: the follow-ups of a
/// result page (Open PDF, Show in Files, Open Outbox).
@MainActor
enum DesktopFiles {
    /// Opens `path` with the desktop's default application for its type (GIO's default handler);
    /// calls `failed` with a sentence for a person when nothing opens it.
    static func open(_ path: String, failed: @escaping @MainActor (String) -> Void) {
        if !launchDefault(uri: fileURI(path)) {
            failed("No application is set up to open \(URL(fileURLWithPath: path).lastPathComponent).")
        }
    }

    /// Shows `path` selected in the file manager (`org.freedesktop.FileManager1.ShowItems` on the
    /// session bus); when no file manager answers, opens the folder that holds it instead.
    ///
    /// The bus call blocks until the file manager answers or starts, so it runs on a thread of
    /// its own; only the fallback, which touches GIO's application launching, comes back here.
    static func showInFiles(_ path: String, failed: @escaping @MainActor (String) -> Void) {
        let item = fileURI(path)
        let folder = fileURI(URL(fileURLWithPath: path).deletingLastPathComponent().path)
        let thread = Thread {
            guard !askFileManager(toShow: item) else { return }
            Task { @MainActor in
                if !launchDefault(uri: folder) { failed("No file manager is available to show the file.") }
            }
        }
        thread.name = "show in files"
        thread.start()
    }

    /// `file://` and the path with what a URI must escape escaped.
    private static func fileURI(_ path: String) -> String { URL(fileURLWithPath: path).absoluteString }

    private static func launchDefault(uri: String) -> Bool {
        var error: UnsafeMutablePointer<GError>?
        let launched = g_app_info_launch_default_for_uri(uri, nil, &error) != 0
        if let error { g_error_free(error) }
        return launched
    }

    /// Calls ShowItems(`[uri]`, no startup id) and waits for its answer, 5 s at most; false when
    /// no file manager is on the bus or it refused.
    nonisolated private static func askFileManager(toShow uri: String) -> Bool {
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            if let error { g_error_free(error) }
            return false
        }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        // (as s): the items, then the startup notification id, empty.
        let parameters = uri.withCString { text -> OpaquePointer? in
            var uris: [UnsafePointer<gchar>?] = [text]
            var children: [OpaquePointer?] = [g_variant_new_strv(&uris, 1), g_variant_new_string("")]
            return g_variant_new_tuple(&children, 2)
        }
        let reply = g_dbus_connection_call_sync(
            bus, "org.freedesktop.FileManager1", "/org/freedesktop/FileManager1", "org.freedesktop.FileManager1",
            "ShowItems", parameters, nil, G_DBUS_CALL_FLAGS_NONE, 5000, nil, &error)
        if let error { g_error_free(error) }
        guard let reply else { return false }
        g_variant_unref(reply)
        return true
    }
}
