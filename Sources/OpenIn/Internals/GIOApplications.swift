import CGIO
import Foundation
import GLibErrors
import ShareSheet

/// The one place OpenIn calls GIO's application functions (`g_app_info_*`, `g_content_type_*`,
/// `GKeyFile`): GError → `WorkspaceError` conversion and GObject ownership happen here.
enum GIOApplications {
    /// Each app info found for `contentType`, tagged with why it is offered, without repeats.
    static func applications(forContentType contentType: String) -> [Application] {
        var seen = Set<String>()
        var result: [Application] = []
        func add(_ info: OpaquePointer, role: Application.Role) {
            guard let application = describe(info, role: role), seen.insert(application.id).inserted else { return }
            result.append(application)
        }
        if let info = g_app_info_get_default_for_type(contentType, 0) {
            add(info, role: .default)
            g_object_unref(UnsafeMutableRawPointer(info))
        }
        for (role, list) in [
            (Application.Role.recommended, g_app_info_get_recommended_for_type(contentType)),
            (.fallback, g_app_info_get_fallback_for_type(contentType)),
        ] {
            forEach(list) { add($0, role: role) }
            g_list_free_full(list) { g_object_unref($0) }
        }
        // shared-mime-info makes every text type a kind of text/plain and every other file type
        // a kind of application/octet-stream; GIO's fallback list only follows declared parents,
        // so the applications for those two come last, as what they are: fallbacks.
        if !contentType.hasPrefix("x-scheme-handler/"), !contentType.hasPrefix("inode/") {
            for broader in ["text/plain", "application/octet-stream"]
            where broader != contentType && g_content_type_is_a(contentType, broader) != 0 {
                let list = g_app_info_get_recommended_for_type(broader)
                forEach(list) { add($0, role: .fallback) }
                g_list_free_full(list) { g_object_unref($0) }
            }
        }
        return result
    }

    /// The ids of the applications registered for `contentType` itself.
    static func registeredIDs(forContentType contentType: String) -> Set<String> {
        let list = g_app_info_get_recommended_for_type(contentType)
        defer { g_list_free_full(list) { g_object_unref($0) } }
        var ids = Set<String>()
        forEach(list) { info in
            if let id = g_app_info_get_id(info) { ids.insert(String(cString: id)) }
        }
        return ids
    }

    /// The installed application with this desktop-file id.
    static func application(withID id: String) -> Application? {
        withInfo(id: id) { describe($0, role: .chosen) }
    }

    /// Launches the application `id` with `urls` through `g_app_info_launch_uris` (GLib spawns
    /// the program directly; no shell reads the arguments).
    static func launch(id: String, name: String, urls: [URL]) throws {
        let found: Bool = try withInfo(id: id) { info in
            try checkExecutable(info, name: name)
            var list: UnsafeMutablePointer<GList>? = nil
            var copies: [UnsafeMutablePointer<CChar>] = []
            for url in urls {
                guard let copy = strdup(url.absoluteString) else { continue }
                copies.append(copy)
                list = g_list_append(list, copy)
            }
            defer {
                g_list_free(list)
                copies.forEach { free($0) }
            }
            var error: UnsafeMutablePointer<GError>?
            if g_app_info_launch_uris(info, list, nil, &error) == 0 {
                throw WorkspaceError(
                    .launchFailed, "\(name): cannot start: \(GLibError(taking: &error, call: "g_app_info_launch_uris").message)")
            }
            return true
        } ?? false
        if !found { throw WorkspaceError(.noSuchApplication, "\(id): no such application is installed") }
    }

    /// Makes `id` the default for `contentType` in the person's `mimeapps.list`.
    static func setDefault(id: String, name: String, forContentType contentType: String) throws {
        let found: Bool = try withInfo(id: id) { info in
            var error: UnsafeMutablePointer<GError>?
            if g_app_info_set_as_default_for_type(info, contentType, &error) == 0 {
                throw WorkspaceError(
                    .configurationFailed,
                    "\(name): cannot be made the default for \(contentType): "
                        + GLibError(taking: &error, call: "g_app_info_set_as_default_for_type").message)
            }
            return true
        } ?? false
        if !found { throw WorkspaceError(.noSuchApplication, "\(id): no such application is installed") }
    }

    /// The desktop-file ids the `[Default Applications]` groups of every `mimeapps.list` in the
    /// XDG lookup path name for `contentType`. GIO has no call that tells an explicit default
    /// from the first registered application, so GLib's own key-file reader answers it.
    static func explicitDefaults(forContentType contentType: String) -> Set<String> {
        var folders: [String] = [string(g_get_user_config_dir())]
        folders += strings(g_get_system_config_dirs())
        folders.append(string(g_get_user_data_dir()) + "/applications")
        folders += strings(g_get_system_data_dirs()).map { $0 + "/applications" }
        // GIO reads this process's XDG folders above, so the desktop name comes from it too.
        let desktops = (HostEnvironment.process["XDG_CURRENT_DESKTOP"] ?? "")
            .split(separator: ":").map { $0.lowercased() + "-mimeapps.list" }
        var ids = Set<String>()
        for folder in folders {
            for name in desktops + ["mimeapps.list"] {
                ids.formUnion(defaultEntries(in: folder + "/" + name, contentType: contentType))
            }
        }
        return ids
    }

    /// The content type of a file's name and first bytes, as a MIME type.
    static func mimeType(ofFileNamed name: String, head: Data?) -> String {
        var uncertain: gboolean = 0
        let guessed: UnsafeMutablePointer<gchar>? = {
            guard let head, !head.isEmpty else { return g_content_type_guess(name, nil, 0, &uncertain) }
            return head.withUnsafeBytes { bytes in
                g_content_type_guess(name, bytes.bindMemory(to: guchar.self).baseAddress, gsize(bytes.count), &uncertain)
            }
        }()
        guard let guessed else { return "application/octet-stream" }
        defer { g_free(guessed) }
        guard let mime = g_content_type_get_mime_type(guessed) else { return string(guessed) }
        defer { g_free(mime) }
        return string(mime)
    }

    // MARK: Helpers

    private static func defaultEntries(in path: String, contentType: String) -> [String] {
        guard FileManager.default.fileExists(atPath: path), let file = g_key_file_new() else { return [] }
        defer { g_key_file_free(file) }
        guard g_key_file_load_from_file(file, path, G_KEY_FILE_NONE, nil) != 0 else { return [] }
        var count: gsize = 0
        guard let list = g_key_file_get_string_list(file, "Default Applications", contentType, &count, nil) else {
            return []
        }
        defer { g_strfreev(list) }
        return (0..<Int(count)).compactMap { list[$0].map { String(cString: $0) } }
    }

    private static func withInfo<T>(id: String, _ body: (OpaquePointer) throws -> T?) rethrows -> T? {
        let all = g_app_info_get_all()
        defer { g_list_free_full(all) { g_object_unref($0) } }
        var match: OpaquePointer?
        forEach(all) { info in
            if match == nil, let infoID = g_app_info_get_id(info), String(cString: infoID) == id { match = info }
        }
        guard let match else { return nil }
        return try body(match)
    }

    /// Reports a program that is missing or not executable before GLib's launch helper would
    /// swallow the reason.
    private static func checkExecutable(_ info: OpaquePointer, name: String) throws {
        guard let executable = g_app_info_get_executable(info).map(String.init(cString:)), !executable.isEmpty else {
            return
        }
        guard let found = g_find_program_in_path(executable) else {
            throw WorkspaceError(.launchFailed, "\(name): cannot start: program '\(executable)' not found")
        }
        defer { g_free(found) }
        let path = string(found)
        if access(found, X_OK) != 0 {
            throw WorkspaceError(.launchFailed, "\(name): cannot start: \(path): \(String(cString: strerror(errno)))")
        }
        // A script whose interpreter is gone fails inside GLib's launch helper, where nobody
        // hears it: look at the `#!` line first.
        if let interpreter = interpreter(of: path), access(interpreter, X_OK) != 0 {
            let reason = String(cString: strerror(errno))
            throw WorkspaceError(.launchFailed, "\(name): cannot start: \(path): bad interpreter \(interpreter): \(reason)")
        }
    }

    /// The program named on a script's `#!` line.
    private static func interpreter(of path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 256), head.starts(with: Array("#!".utf8)) else { return nil }
        let line = head.dropFirst(2).prefix { $0 != UInt8(ascii: "\n") }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        return text.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init)
    }

    private static func describe(_ info: OpaquePointer, role: Application.Role) -> Application? {
        guard let id = g_app_info_get_id(info) else { return nil }
        let name = g_app_info_get_display_name(info) ?? g_app_info_get_name(info)
        var iconName: String?
        if let icon = g_app_info_get_icon(info), let text = g_icon_to_string(icon) {
            iconName = String(cString: text)
            g_free(text)
        }
        return Application(
            id: String(cString: id), name: name.map { String(cString: $0) } ?? String(cString: id),
            iconName: iconName, executable: g_app_info_get_executable(info).map { String(cString: $0) } ?? "",
            role: role)
    }

    private static func forEach(_ list: UnsafeMutablePointer<GList>?, _ body: (OpaquePointer) -> Void) {
        var node = list
        while let current = node {
            if let data = current.pointee.data { body(OpaquePointer(data)) }
            node = current.pointee.next
        }
    }

    private static func string(_ pointer: UnsafePointer<gchar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }

    private static func string(_ pointer: UnsafeMutablePointer<gchar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }

    private static func strings(_ list: UnsafePointer<UnsafePointer<gchar>?>?) -> [String] {
        guard let list else { return [] }
        var result: [String] = []
        var index = 0
        while let item = list[index] {
            result.append(String(cString: item))
            index += 1
        }
        return result
    }
}
