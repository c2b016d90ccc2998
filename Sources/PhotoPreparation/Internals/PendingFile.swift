import Foundation

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

    /// Gives the finished file its name (replacing a file of that name: the folder is the caller's).
    func commit() throws {
        guard rename(temporary.path, final.path) == 0 else {
            throw ShareErrorReason.posix(errno, "cannot be renamed")
        }
    }

    /// Removes what was written, after a failure.
    func discard() { unlink(temporary.path) }
}

/// A POSIX failure as the reason part of a message ("cannot be renamed: No space left on device").
enum ShareErrorReason: Error, CustomStringConvertible {
    case posix(Int32, String)

    var description: String {
        switch self {
        case .posix(let code, let what): "\(what): \(String(cString: strerror(code)))"
        }
    }
}
