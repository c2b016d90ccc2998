import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The terminal the process was started from (`/dev/tty`), for when standard input is spent
/// on an item: `echo "see you at 6" | share -` reads the text from the pipe and the pick from
/// the person, as fzf and git do.
struct ControllingTerminal: Sendable {
    /// True when the process has a controlling terminal that it may read and write.
    func isAvailable() -> Bool {
        let descriptor = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { return false }
        close(descriptor)
        return true
    }

    /// Puts the terminal in the place of standard input, once standard input has been read to
    /// its end: every reader of the sheet (the line editor, the arrow keys, the echo-less
    /// prompt, an editor the sheet starts) then reads the person's keys unchanged.
    /// - Returns: false when there is no terminal to attach.
    func attachAsStandardInput() -> Bool {
        let descriptor = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return dup2(descriptor, STDIN_FILENO) == STDIN_FILENO
    }
}
