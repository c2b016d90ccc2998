import Foundation

/// The hidden files uploads stream into before they are whole:
/// `.PID.UUID.HOST.sharesheet-part` in the receive folder, so that the next receiver can tell a
/// killed writer's file (its host is ours and its PID runs no more) from one still being written,
/// also when the folder is shared between machines. Files named before #15
/// (`.UUID.sharesheet-part`) and files of other hosts go once untouched for 36 hours.
enum PartialFiles {
    static let suffix = ".sharesheet-part"

    /// This machine's name as part names carry it ("/" and "." never appear in it: a name
    /// that would hold them is left out).
    static let host: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        gethostname(&buffer, buffer.count - 1)
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.contains("/") || name.isEmpty ? "localhost" : name
    }()

    /// A fresh name for a file this process writes.
    static func newName() -> String { ".\(getpid()).\(UUID().uuidString).\(host)\(suffix)" }

    /// Removes the part files in `folder` whose writer is gone: at once when the name carries
    /// this host and a PID that no process has, else once untouched for 36 hours.
    static func removeAbandoned(in folder: URL, now: Date = Date()) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(".") && name.hasSuffix(suffix) {
            let path = folder.appendingPathComponent(name).path
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            let parts = name.dropFirst().dropLast(suffix.count).split(separator: ".", maxSplits: 2)
            let abandoned: Bool
            if parts.count == 3, let pid = pid_t(parts[0]), parts[2] == host {
                abandoned = WriterProcess.isGone(pid)
            } else {
                abandoned = now.timeIntervalSince1970 - Double(info.st_mtim.tv_sec) > 36 * 3600
            }
            if abandoned { unlink(path) }
        }
    }
}

/// The process that writes a temporary file, named by the PID the file's name carries.
enum WriterProcess {
    /// True when no process `pid` runs any more, so nobody will finish or remove its file. A
    /// process of another user (`EPERM`) still runs.
    static func isGone(_ pid: pid_t) -> Bool {
        guard pid > 0 else { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }
}
