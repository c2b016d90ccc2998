import Foundation

/// The process that writes a temporary file, named by the PID the file's name carries.
enum WriterProcess {
    /// True when no process `pid` runs any more, so nobody will finish or remove its file. A
    /// process of another user (`EPERM`) still runs.
    static func isGone(_ pid: pid_t) -> Bool {
        guard pid > 0 else { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }
}
