import Foundation

/// The folders of files made for one share only, which go when that share ends: a provider's
/// document (`FileProvider`), a caller's descriptor spooled by the share service.
///
/// Most activities are done with their items when the share ends. One that hands a file's
/// path to something that outlives the share (Copy puts it on the clipboard) asks here, and
/// keeps a copy of its own of a file that is about to go.
public enum ShareScopedFiles {
    private static let folders = Locked<Set<String>>([])

    /// Marks everything in `folder` as going when its share ends.
    public static func register(folder: URL) {
        _ = folders.withLock { $0.insert(folder.standardizedFileURL.path) }
    }

    /// Forgets `folder` (it was removed, or its files are no longer the share's).
    public static func unregister(folder: URL) {
        _ = folders.withLock { $0.remove(folder.standardizedFileURL.path) }
    }

    /// True when `url` is a file in a registered folder.
    public static func contains(_ url: URL) -> Bool {
        guard url.isFileURL else { return false }
        let folder = url.standardizedFileURL.deletingLastPathComponent().path
        return folders.withLock { $0.contains(folder) }
    }
}
