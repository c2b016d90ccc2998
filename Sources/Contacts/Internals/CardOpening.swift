import Foundation
import ShareSheet

/// Opens a `.vcf` file so that nothing in the folder can stall or flood the reader: a FIFO
/// among the cards would block the open or the first read forever, and a link to `/dev/zero`
/// would be read until memory runs out (#28).
enum CardOpening {
    /// The most bytes read from one file. A card with a large photo is a few MiB; an export of
    /// every contact with photos (which is skipped as more than one card, but read to say so)
    /// stays under it; past it, the file is no card this module would keep.
    static let sizeLimit = 64 << 20

    /// The reason a file over `sizeLimit` is skipped.
    static let tooLarge = "larger than \(sizeLimit >> 20) MiB, more than any one card holds"

    /// Opens `url` for reading when it is a regular file no larger than `sizeLimit`.
    ///
    /// The open does not wait (`O_NONBLOCK`: a FIFO without a writer opens at once), and the
    /// file's type is checked on the open descriptor with `fstat`, not by path before: a file
    /// swapped for a FIFO between a check and the open is still caught.
    /// - Returns: a handle that closes the file when released.
    /// - Throws: `ShareError` naming the file: `.badData` for a FIFO, a device, a folder or a file
    ///   over the limit; `.ioError` when it cannot be opened.
    static func open(_ url: URL) throws -> FileHandle {
        let descriptor = Glibc.open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ShareError(.ioError, "\(url.path): cannot read: \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw ShareError(.ioError, "\(url.path): cannot read: \(reason)")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw ShareError(.badData, "\(url.path): not a regular file (\(kind(of: info.st_mode)))")
        }
        guard info.st_size <= sizeLimit else {
            close(descriptor)
            throw ShareError(.badData, "\(url.path): \(tooLarge)")
        }
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// What a file that is not a regular file is, in words.
    private static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: return "a FIFO"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFDIR: return "a folder"
        case S_IFSOCK: return "a socket"
        default: return "mode \(String(mode & S_IFMT, radix: 8))"
        }
    }
}
