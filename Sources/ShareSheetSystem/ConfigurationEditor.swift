import CGIO
import Foundation
import GLibErrors
import ShareSheet

/// Changes keys of the configuration file the way a person would: every other line, comment
/// and group stays as it was, and the file is replaced atomically (a reader sees the old file
/// or the new one, never half of it).
public enum ConfigurationEditor {
    /// One change: `value` nil removes the key.
    public typealias Edit = (group: String, key: String, value: String?)

    /// Reads `file` (missing is empty), lets `edits` look at the current values and say what to
    /// change, and writes the result when there is a change. The file keeps its permissions;
    /// a new one is made 0600 (it may sit beside account settings).
    /// - Throws: `ShareError(.badData)` naming the file when GLib cannot read it,
    ///   `ShareError(.ioError)` when it cannot be written.
    public static func update(
        _ file: URL, edits: (_ current: (String, String) -> String?) throws -> [Edit]
    ) throws {
        guard let keyFile = g_key_file_new() else { throw ShareError(.ioError, "\(file.path): out of memory") }
        defer { g_key_file_free(keyFile) }
        var error: UnsafeMutablePointer<GError>?
        let exists = FileManager.default.fileExists(atPath: file.path)
        if exists,
            g_key_file_load_from_file(
                keyFile, file.path, GKeyFileFlags(G_KEY_FILE_KEEP_COMMENTS.rawValue | G_KEY_FILE_KEEP_TRANSLATIONS.rawValue),
                &error) == 0
        {
            throw ShareError(.badData, "\(file.path): \(GLibError(taking: &error, call: "g_key_file_load_from_file").message)")
        }
        let changes = try edits { group, key in
            guard let value = g_key_file_get_string(keyFile, group, key, nil) else { return nil }
            defer { g_free(value) }
            return String(cString: value)
        }
        guard !changes.isEmpty else { return }
        for change in changes {
            if let value = change.value {
                g_key_file_set_string(keyFile, change.group, change.key, value)
            } else {
                g_key_file_remove_key(keyFile, change.group, change.key, nil)
                // A group left with no key is noise in a file people read.
                var count: gsize = 0
                if let keys = g_key_file_get_keys(keyFile, change.group, &count, nil) {
                    g_strfreev(keys)
                    if count == 0 { g_key_file_remove_group(keyFile, change.group, nil) }
                }
            }
        }
        var length: gsize = 0
        guard let text = g_key_file_to_data(keyFile, &length, nil) else {
            throw ShareError(.ioError, "\(file.path): out of memory")
        }
        defer { g_free(text) }
        let data = Data(bytes: text, count: Int(length))
        var status = stat()
        let permissions: mode_t = exists && stat(file.path, &status) == 0 ? status.st_mode & 0o777 : 0o600
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try AtomicFile.write(data, to: file, permissions: permissions)
    }
}
