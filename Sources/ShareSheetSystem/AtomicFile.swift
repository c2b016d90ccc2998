import Foundation
import ShareSheet

/// Writes that leave either the old file or the whole new one, never half of either.
public enum AtomicFile {
    /// Writes `data` to `url` through a temporary file in the same folder, flushed to disk, then
    /// renamed over `url`. The folder is created when missing. The temporary file is named
    /// `.NAME.PID.UUID.tmp`; those a killed writer left in the folder are removed first.
    /// - Parameter permissions: the new file's mode (0600 for secrets); defaults to 0644.
    public static func write(_ data: Data, to url: URL, permissions: mode_t = 0o644) throws {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        removeAbandonedTemporaries(in: folder)
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UUID().uuidString).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard descriptor >= 0 else { throw posixError("\(url.lastPathComponent): cannot create a temporary file") }
        var written = 0
        let failed: Bool = data.withUnsafeBytes { buffer in
            while written < buffer.count {
                let count = Glibc.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    return true
                }
                written += count
            }
            return fsync(descriptor) != 0
        }
        let writeError = errno
        close(descriptor)
        if failed {
            unlink(temporary.path)
            errno = writeError
            throw posixError("\(url.lastPathComponent): cannot write")
        }
        guard rename(temporary.path, url.path) == 0 else {
            let renameError = errno
            unlink(temporary.path)
            errno = renameError
            throw posixError("\(url.lastPathComponent): cannot replace")
        }
    }

    /// Removes the temporary files of `write` in `folder` whose writer is gone: a process killed
    /// mid-write (SIGKILL, a power cut) cannot remove its own, and without this they stayed
    /// forever. One whose PID no process has goes at once; one named before #15, without a PID
    /// (`.NAME.UUID.tmp`), once untouched for 36 hours. A running writer's file stays.
    public static func removeAbandonedTemporaries(in folder: URL, now: Date = Date()) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(".") && name.hasSuffix(".tmp") {
            let parts = name.dropLast(".tmp".count).split(separator: ".")
            guard parts.count >= 2, UUID(uuidString: String(parts[parts.count - 1])) != nil else { continue }
            let path = folder.appendingPathComponent(name).path
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == getuid() else { continue }
            let abandoned: Bool
            if parts.count >= 3, let pid = pid_t(parts[parts.count - 2]), pid > 0 {
                abandoned = WriterProcess.isGone(pid)
            } else {
                abandoned = now.timeIntervalSince1970 - Double(info.st_mtim.tv_sec) > 36 * 3600
            }
            if abandoned { unlink(path) }
        }
    }

    /// A name in `folder` that no file has yet: `name.ext`, then `name 2.ext`, `name 3.ext`…
    /// It is only a proposal: create the file with `O_EXCL` (or `link`) to claim it.
    public static func unusedName(for name: String, in folder: URL) -> URL {
        let base = (name as NSString).deletingPathExtension
        let ext = (name as NSString).pathExtension
        var candidate = folder.appendingPathComponent(name)
        var number = 2
        while FileManager.default.fileExists(atPath: candidate.path) {
            let numbered = "\(base) \(number)" + (ext.isEmpty ? "" : ".\(ext)")
            candidate = folder.appendingPathComponent(numbered)
            number += 1
        }
        return candidate
    }

    private static func posixError(_ message: String) -> ShareError {
        ShareError(.ioError, "\(message): \(String(cString: strerror(errno)))")
    }
}
