import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What one `stat` says about a shared file, for its size in a preview: never its contents.
enum FileStatus: Equatable {
    /// A regular file (or a link to one) of this many bytes.
    case regular(Int64)
    /// A folder.
    case directory
    /// Missing, unreadable, or neither a file nor a folder.
    case unknown

    /// One `stat` of the file at `url`, following links as opening the file would.
    static func of(_ url: URL) -> FileStatus {
        var status = stat()
        let result = url.withUnsafeFileSystemRepresentation { path -> Int32 in
            guard let path else { return -1 }
            return stat(path, &status)
        }
        guard result == 0 else { return .unknown }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .regular(Int64(status.st_size))
        case S_IFDIR: return .directory
        default: return .unknown
        }
    }
}
