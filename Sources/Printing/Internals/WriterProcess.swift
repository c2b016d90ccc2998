import Foundation

/// The process that writes a temporary file or folder, named by the PID its name carries.
enum WriterProcess {
    /// True when no process `pid` runs any more, so nobody will finish or remove what it wrote.
    /// A process of another user (`EPERM`) still runs.
    static func isGone(_ pid: pid_t) -> Bool {
        guard pid > 0 else { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }
}
