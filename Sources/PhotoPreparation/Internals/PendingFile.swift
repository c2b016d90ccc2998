import Foundation
import ShareSheet

/// A file being written into the caller's folder: under a hidden temporary name until `commit`
/// renames it, so a receiver, or a crash, never meets half a photo under the real name.
struct PendingFile {
    /// Where the file is written.
    let temporary: URL
    /// Its name once complete.
    let final: URL

    init(folder: URL, name: String) {
        temporary = folder.appendingPathComponent(".\(name).\(UUID().uuidString).partial")
        final = folder.appendingPathComponent(name)
    }

    /// Gives the finished file its name, replacing a file of that name (the folder is the
    /// caller's), unless that file is `source` itself: the person's photo is never replaced.
    func commit(sparing source: URL) throws {
        var existing = stat(), original = stat()
        if lstat(final.path, &existing) == 0, stat(source.path, &original) == 0,
            existing.st_dev == original.st_dev, existing.st_ino == original.st_ino
        {
            throw PendingFileError.wouldReplaceSource
        }
        guard rename(temporary.path, final.path) == 0 else {
            throw PendingFileError.posix(errno, "cannot be renamed")
        }
    }

    /// `commit(sparing:)` for `photo`, written into `folder` as `name`: what was written is
    /// removed on failure, and the failure is a `ShareError` naming the photo.
    func commit(_ photo: SourcePhoto, as name: String, in folder: URL) throws {
        do {
            try commit(sparing: photo.url)
        } catch PendingFileError.wouldReplaceSource {
            discard()
            throw ShareError(.usage, "\(photo.name): \(PendingFileError.wouldReplaceSource)", path: folder.path)
        } catch {
            discard()
            throw ShareError(.ioError, "\(folder.lastPathComponent): \(name) \(error)", path: folder.path)
        }
    }

    /// Removes what was written, after a failure.
    func discard() { unlink(temporary.path) }
}

/// Why a finished file could not get its name, as the reason part of a message.
enum PendingFileError: Error, CustomStringConvertible {
    /// A POSIX failure ("cannot be renamed: No space left on device").
    case posix(Int32, String)
    /// The result would take the source's place: the folder is the photo's own.
    case wouldReplaceSource

    var description: String {
        switch self {
        case .posix(let code, let what): "\(what): \(String(cString: strerror(code)))"
        case .wouldReplaceSource: "the prepared photo would replace it (the folder is its own)"
        }
    }
}
