import Foundation
import ShareSheet

/// What was made from small files read many times in one process — the configuration file, the
/// list of accounts — made again only when the file changed (its inode, size, modification or
/// change time). A sheet build, where several activities read the same file, reads it once; a
/// long-running service still sees every edit.
public enum FileCache {
    private struct Stamp: Equatable {
        var inode: UInt64
        var size: Int64
        var modified: timespec
        var changed: timespec

        static func == (lhs: Stamp, rhs: Stamp) -> Bool {
            lhs.inode == rhs.inode && lhs.size == rhs.size && lhs.modified.tv_sec == rhs.modified.tv_sec
                && lhs.modified.tv_nsec == rhs.modified.tv_nsec && lhs.changed.tv_sec == rhs.changed.tv_sec
                && lhs.changed.tv_nsec == rhs.changed.tv_nsec
        }
    }

    private struct Entry: @unchecked Sendable {
        var stamp: Stamp
        var value: Any
    }

    private static let entries = Locked<[String: Entry]>([:])

    /// The value `make` made from the file at `path`, made again when the file changed since;
    /// nil, and nothing kept, when there is no file. Errors from `make` are not kept.
    public static func value<T>(at path: String, make: () throws -> T) throws -> T? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            entries.withLock { $0[path] = nil }
            return nil
        }
        let stamp = Stamp(
            inode: UInt64(info.st_ino), size: Int64(info.st_size), modified: info.st_mtim, changed: info.st_ctim)
        if let kept = entries.withLock({ $0[path] }), kept.stamp == stamp, let value = kept.value as? T { return value }
        let value = try make()
        entries.withLock { $0[path] = Entry(stamp: stamp, value: value) }
        return value
    }
}
