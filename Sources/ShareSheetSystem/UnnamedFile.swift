import Foundation
import ShareSheet

/// Bytes in a file that has no name: a descriptor to hand to another process (over D-Bus) that
/// nobody else can open, and that the kernel frees when the last descriptor closes, even after
/// a kill.
public enum UnnamedFile {
    /// A descriptor (close-on-exec, positioned at the start) of a file in `folder` holding
    /// `data`, whose name is removed at once.
    /// - Parameter name: what the bytes are called in an error ("-" for standard input).
    /// - Throws: `ShareError(.ioError)` naming `name`, `folder` and the reason.
    public static func holding(_ data: Data, in folder: String, name: String) throws -> Int32 {
        var template = Array("\(folder)/sharesheet-unnamed-\(getpid())-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if descriptor < 0 { throw failure(name, folder, errno) }
        let path = String(cString: template.map { UInt8(bitPattern: $0) })
        unlink(path)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        var written = 0
        while written < data.count {
            let count = data.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 {
                let code = count == 0 ? ENOSPC : errno
                close(descriptor)
                throw failure(name, folder, code)
            }
            written += count
        }
        lseek(descriptor, 0, SEEK_SET)
        return descriptor
    }

    private static func failure(_ name: String, _ folder: String, _ code: Int32) -> ShareError {
        ShareError(.ioError, "\(name): cannot keep it in \(folder): \(String(cString: strerror(code)))")
    }
}
