import CGIO
import DBus
import Foundation
import GLibErrors
import ShareSheet

/// Reads share targets from desktop entries: GIO's desktop app info for what GIO knows (the
/// localized name, the icon, hidden entries, whether the program is installed), the key file
/// for the rest. The one place this module reads desktop entries.
enum DesktopEntryReader {
    /// The key every share target's entry has.
    static let acceptsKey = "X-ShareSheet-Accepts"
    static let categoryKey = "X-ShareSheet-Category"
    static let busNameKey = "X-ShareSheet-DBus"
    static let networkKey = "X-ShareSheet-Network"
    private static let group = "Desktop Entry"

    /// What one file holds.
    enum Entry {
        /// Not a share target: no `X-ShareSheet-Accepts=`.
        case notATarget
        /// `Hidden=true`, or its `TryExec=` program is not installed: it is not there, and it
        /// hides an entry of the same id further down the folders.
        case hidden
        /// A share target, offered or with the problem that stops it.
        case target(ShareTarget)
    }

    /// Reads the entry at `path` as the target `desktopID`.
    /// - Throws: `TargetEntryProblem` when the file cannot be read as a key file at all.
    static func read(path: String, desktopID: String) throws -> Entry {
        // Most entries on a desktop are not targets: a look at the bytes skips them unparsed.
        guard let bytes = FileManager.default.contents(atPath: path) else {
            throw TargetEntryProblem("\(path): cannot be read")
        }
        guard bytes.range(of: Data(acceptsKey.utf8)) != nil else { return .notATarget }
        guard let keyFile = g_key_file_new() else { throw TargetEntryProblem("\(path): out of memory") }
        defer { g_key_file_free(keyFile) }
        var error: UnsafeMutablePointer<GError>?
        let loaded = bytes.withUnsafeBytes { raw in
            g_key_file_load_from_data(
                keyFile, raw.baseAddress?.assumingMemoryBound(to: CChar.self), gsize(raw.count), G_KEY_FILE_NONE, &error)
        }
        guard loaded != 0 else { throw TargetEntryProblem("\(path): \(GLibError(taking: &error, call: "g_key_file_load_from_data").message)") }
        guard let accepts = string(keyFile, acceptsKey) else { return .notATarget }
        if boolean(keyFile, "Hidden") { return .hidden }
        if let tryExec = string(keyFile, "TryExec"), !isInstalled(tryExec) { return .hidden }

        var target = ShareTarget(
            desktopID: desktopID, path: path, title: localeString(keyFile, "Name") ?? ShareTarget.name(ofDesktopID: desktopID),
            iconName: localeString(keyFile, "Icon"), category: .share, accepts: nil, reach: nil, problem: nil)
        var problems: [String] = []
        do {
            target.accepts = try TargetAccepts(parsing: accepts)
        } catch let problem as TargetEntryProblem {
            problems.append("\(acceptsKey): \(problem.message)")
        }
        target.sendsItemsAway = boolean(keyFile, networkKey)
        switch string(keyFile, categoryKey)?.lowercased() {
        case nil, "share": target.category = .share
        case "action": target.category = .action
        case let other?: problems.append("\(categoryKey)=\(other): the row is share or action")
        }
        let exec = string(keyFile, "Exec")
        if let busName = string(keyFile, busNameKey) {
            if DBusName.isWellKnown(busName) {
                target.reach = .dbus(name: busName)
            } else {
                problems.append("\(busNameKey)=\(busName): not a well-known D-Bus name")
            }
        } else if let exec {
            if let program = program(of: exec), !isInstalled(program) {
                problems.append("its program \(program) is not installed")
            } else if !["%f", "%F", "%u", "%U"].contains(where: exec.contains) {
                problems.append("Exec= takes no file or link (%f, %F, %u or %U), and no \(busNameKey)= is given")
            } else {
                target.reach = .exec(commandLine: exec)
            }
        } else {
            problems.append("neither \(busNameKey)= nor Exec= says how to reach it")
        }
        // An Exec= target is launched by GIO: it must be an entry GIO loads. (A D-Bus target's
        // Exec=, if any, is not used, so a missing program there does not matter.)
        if problems.isEmpty, case .exec = target.reach {
            if let info = g_desktop_app_info_new_from_keyfile(keyFile) {
                if let name = g_app_info_get_name(info) { target.title = String(cString: name) }
                g_object_unref(UnsafeMutableRawPointer(info))
            } else {
                problems.append("GIO cannot load it as an application entry (Type=Application and Name= are needed)")
            }
        }
        target.problem = problems.isEmpty ? nil : problems.joined(separator: "; ")
        return .target(target)
    }

    /// The program an `Exec=` line runs, as the desktop entry specification splits it.
    static func program(of commandLine: String) -> String? {
        var argc: Int32 = 0
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?
        guard g_shell_parse_argv(commandLine, &argc, &argv, nil) != 0, let argv else { return nil }
        defer { g_strfreev(argv) }
        return argc > 0 ? argv[0].map { String(cString: $0) } : nil
    }

    /// True when `program` (a name looked up in PATH, or a path) can be run.
    static func isInstalled(_ program: String) -> Bool {
        guard let found = g_find_program_in_path(program) else { return false }
        g_free(found)
        return true
    }

    static func string(_ keyFile: OpaquePointer, _ key: String) -> String? {
        guard let value = g_key_file_get_string(keyFile, group, key, nil) else { return nil }
        defer { g_free(value) }
        let text = String(cString: value).trimmingCharacters(in: .whitespaces)
        return text.isEmpty ? nil : text
    }

    private static func localeString(_ keyFile: OpaquePointer, _ key: String) -> String? {
        guard let value = g_key_file_get_locale_string(keyFile, group, key, nil, nil) else { return nil }
        defer { g_free(value) }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    private static func boolean(_ keyFile: OpaquePointer, _ key: String) -> Bool {
        g_key_file_get_boolean(keyFile, group, key, nil) != 0
    }
}
