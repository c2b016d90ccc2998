import Foundation
import ShareSheet

/// Writes that leave either the old file or the whole new one, never half of either.
public enum AtomicFile {
    /// Writes `data` to `url` through a temporary file in the same folder, flushed to disk, then
    /// renamed over `url`. The folder is created when missing.
    /// - Parameter permissions: the new file's mode (0600 for secrets); defaults to 0644.
    public static func write(_ data: Data, to url: URL, permissions: mode_t = 0o644) throws {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
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
