import CGIO
import Foundation
import GLibErrors
import ShareSheet
import ShareSheetSystem

/// Starts an `Exec=` target with the items: GIO expands `%f`/`%F` to paths and `%u`/`%U` to
/// URIs and runs the program directly, so no shell ever reads a file's name.
enum TargetLaunch {
    /// Launches the entry at `entry` with `items`. Text and bytes are first written to named
    /// files in a new folder under `handOffFolder`, which the program reads after this process
    /// may have ended, so they are kept.
    /// - Throws: `ShareError` naming the target and GIO's reason when it cannot start.
    static func launch(entry: String, title: String, items: [TargetItem], handOffFolder: URL) throws -> TargetReply {
        var uris: [String] = []
        var folder: URL?
        for item in items {
            switch item {
            case .uri(let uri): uris.append(uri)
            case .file(let path, _, _): uris.append(fileURI(path))
            case .text(let text):
                folder = try folder ?? makeFolder(in: handOffFolder)
                uris.append(fileURI(try write(Data(text.utf8), named: "text.txt", in: folder!)))
            case .bytes(let data, let name, _):
                folder = try folder ?? makeFolder(in: handOffFolder)
                uris.append(fileURI(try write(data, named: name, in: folder!)))
            }
        }
        guard let info = g_desktop_app_info_new_from_filename(entry) else {
            throw ShareError(.unavailable, "\(title): its desktop entry \(entry) can no longer be loaded")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(info)) }
        let copies = uris.map { strdup($0)! }
        defer { copies.forEach { free($0) } }
        var list: UnsafeMutablePointer<GList>?
        for index in copies.indices { list = g_list_append(list, copies[index]) }
        defer { g_list_free(list) }
        var error: UnsafeMutablePointer<GError>?
        guard g_app_info_launch_uris(info, list, nil, &error) != 0 else {
            throw ShareError(.unavailable, "\(title): cannot start: \(GLibError(taking: &error, call: "g_app_info_launch_uris").message)")
        }
        return TargetReply(completed: true, disposition: ShareDisposition.handedOff.rawValue, location: folder?.path)
    }

    /// The `file://` URI of a path, escaped by GIO (spaces, `;`, `#`, non-ASCII all survive).
    private static func fileURI(_ path: String) -> String {
        let file = g_file_new_for_path(path)!
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        guard let uri = g_file_get_uri(file) else { return URL(fileURLWithPath: path).absoluteString }
        defer { g_free(uri) }
        return String(cString: uri)
    }

    private static func makeFolder(in parent: URL) throws -> URL {
        let folder = parent.appendingPathComponent(UUID().uuidString, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ShareError(.ioError, "\(parent.path): cannot make a folder for the items: \(error.localizedDescription)")
        }
        return folder
    }

    /// Writes `data` as `name` (its last path component only) in `folder`, atomically.
    private static func write(_ data: Data, named name: String, in folder: URL) throws -> String {
        var safe = (name as NSString).lastPathComponent
        if safe.isEmpty || safe == "." || safe == ".." { safe = "item" }
        let url = AtomicFile.unusedName(for: safe, in: folder)
        try AtomicFile.write(data, to: url, permissions: 0o600)
        return url.path
    }
}
