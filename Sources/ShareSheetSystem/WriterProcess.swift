import Foundation

/// The process that writes a temporary file or folder, named by the PID its name carries.
///
/// A process killed mid-write (SIGKILL, a power cut) cannot remove what it wrote; the next run
/// does, once the PID in the name is no running process. One place for the rule, so the outbox,
/// printing and standard input's spool judge a leftover alike.
package enum WriterProcess {
    /// True when no process `pid` runs any more, so nobody will finish or remove what it wrote.
    /// A process of another user (`EPERM`) still runs.
    package static func isGone(_ pid: pid_t) -> Bool {
        guard pid > 0 else { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }

    /// Removes what a gone writer left in `folder`: the entries named `prefix` + PID + `.` + any
    /// rest, whose PID is no running process; entries named `prefix` + a rest without `PID.`
    /// (written before the name carried the PID) once untouched for 36 hours, the age the
    /// Maildir convention gives. Only entries of this user, and of the kind asked for (a symbolic
    /// link is never followed), are removed.
    /// - Parameters:
    ///   - folders: true to remove folders (with what is in them), false for regular files.
    package static func removeAbandoned(in folder: URL, prefix: String, folders: Bool, now: Date = Date()) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            let url = folder.appendingPathComponent(name, isDirectory: folders)
            var info = stat()
            guard lstat(url.path, &info) == 0, info.st_mode & S_IFMT == (folders ? S_IFDIR : S_IFREG),
                info.st_uid == getuid()
            else { continue }
            let rest = name.dropFirst(prefix.count)
            let abandoned: Bool
            if let dot = rest.firstIndex(of: "."), let pid = pid_t(rest[..<dot]) {
                abandoned = isGone(pid)
            } else {
                abandoned = now.timeIntervalSince1970 - Double(info.st_mtim.tv_sec) > 36 * 3600
            }
            if abandoned { try? FileManager.default.removeItem(at: url) }
        }
    }
}
