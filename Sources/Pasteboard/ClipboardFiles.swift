import Foundation
import ShareSheet

#if canImport(Glibc)
    import Glibc
#endif

/// Private copies of files Copy put on the clipboard, kept for as long as the clipboard holds
/// them: `$XDG_CACHE_HOME/sharesheet/clipboard/ID/NAME`.
///
/// A file made for one share (a descriptor the share service received) is removed when the
/// share ends, but a clipboard is read later: a path to the share's own file would name nothing
/// by then. Each copy's folder holds a `.lock` file locked (`flock`) by whoever serves the
/// clipboard: this process while it copies, then the clipboard's owner process, which inherits
/// the lock. The owner removes the folder when another program takes the clipboard; a folder
/// whose lock nobody holds (its owner was killed, or the pasteboard has no owner process) is
/// removed by the next Copy, after its own contents are on the clipboard.
public final class ClipboardFiles: Sendable {
    /// The folder of this copy's files.
    public let folder: URL
    /// The open `.lock` file, locked; handed to the owner process as descriptor 3.
    public let lockDescriptor: Int32
    private let released = Locked(false)

    /// The folder all copies are kept in, under `cacheHome`.
    public static func root(cacheHome: URL) -> URL {
        cacheHome.appendingPathComponent("sharesheet/clipboard", isDirectory: true)
    }

    /// Makes a new, locked folder under `root`.
    /// - Throws: `ShareError(.ioError)` when the folder or its lock cannot be made.
    public init(root: URL) throws {
        folder = root.appendingPathComponent(UUID().uuidString, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ShareError(.ioError, "Copy: cannot make \(folder.path): \((error as NSError).localizedDescription)")
        }
        let descriptor = open(folder.appendingPathComponent(".lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0, flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let reason = String(cString: strerror(errno))
            if descriptor >= 0 { close(descriptor) }
            try? FileManager.default.removeItem(at: folder)
            throw ShareError(.ioError, "Copy: cannot lock \(folder.path): \(reason)")
        }
        lockDescriptor = descriptor
    }

    /// Copies `file` into the folder under its own name, through a temporary name renamed into
    /// place, so a reader never sees half a file; returns the copy's URL. On the same file system
    /// the copy is a hard link: the share's file is never written again, and a link outlives
    /// its removal at no cost (a 1 GB descriptor is not written twice).
    /// - Throws: `ShareError(.ioError)` when it cannot be copied (the person is told, and the
    ///   clipboard keeps what it had).
    public func keep(_ file: URL) throws -> URL {
        let name = file.lastPathComponent
        let destination = folder.appendingPathComponent(name, isDirectory: false)
        let partial = folder.appendingPathComponent(".\(name).\(UUID().uuidString).partial")
        do {
            if link(file.path, partial.path) != 0 { try FileManager.default.copyItem(at: file, to: partial) }
            guard rename(partial.path, destination.path) == 0 else {
                throw ShareError(.ioError, String(cString: strerror(errno)))
            }
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw ShareError(.ioError, "Copy: cannot keep a copy of \(name) in \(folder.path): \((error as NSError).localizedDescription)")
        }
        return destination
    }

    /// Lets go of this process's hold on the lock: call once the clipboard's owner holds it
    /// (or there is none). The folder stays.
    public func release() {
        let first = released.withLock { released in
            defer { released = true }
            return !released
        }
        if first { close(lockDescriptor) }
    }

    /// Removes the folder: the copy did not reach the clipboard.
    public func discard() {
        release()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Removes every folder under `root` but `keeping` whose lock nobody holds: the clipboard
    /// holds other contents now.
    public static func removeAbandoned(under root: URL, keeping: URL? = nil) {
        let entries = (try? FileManager.default.contentsOfDirectory(at: root, includingPropertiesForKeys: nil)) ?? []
        for entry in entries where entry.standardizedFileURL.path != keeping?.standardizedFileURL.path {
            let descriptor = open(entry.appendingPathComponent(".lock").path, O_RDWR | O_CLOEXEC)
            // A folder without a lock file is one being made or a stray: leave it only if it is
            // being made, which takes less than a minute.
            if descriptor < 0 {
                let made = (try? entry.resourceValues(forKeys: [.contentModificationDateKey]))?.contentModificationDate ?? .distantPast
                if Date().timeIntervalSince(made) > 60 { try? FileManager.default.removeItem(at: entry) }
                continue
            }
            defer { close(descriptor) }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { try? FileManager.default.removeItem(at: entry) }
        }
    }

    deinit { release() }
}
