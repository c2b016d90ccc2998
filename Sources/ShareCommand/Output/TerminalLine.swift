import Foundation
import ShareSheet

#if canImport(Glibc)
    import Glibc
#endif

/// Reads one line typed on a terminal, optionally with echo off (a token or a password: what is
/// typed must not stay on the screen, in a screen recording or in a terminal's scrollback).
///
/// Echo is turned back on on every way out: the line read, end of input, a read error (a
/// `defer`), and Ctrl-C, whose handler (installed only while reading) restores the terminal
/// and then ends the process with SIGINT as the default action would.
enum TerminalLine {
    /// The terminal's settings before echo was turned off, for the SIGINT handler: a handler
    /// can reach nothing else. Written only before the handler is installed.
    nonisolated(unsafe) private static var saved = termios()
    nonisolated(unsafe) private static var savedDescriptor: Int32 = -1

    /// Reads a line from the terminal `descriptor`.
    /// - Parameters:
    ///   - echo: false to keep what is typed off the screen; the caller then prints a newline
    ///     after, since the one typed was not shown.
    ///   - prompt: says the prompt, called once echo is off: a person (or a test) who types as
    ///     soon as the prompt shows must not be echoed.
    /// - Returns: the line without its newline; nil at end of input (Ctrl-D on an empty line).
    /// - Throws: `ShareError(.ioError)` when the terminal cannot be read or set.
    static func read(descriptor: Int32, echo: Bool, prompt: () -> Void) throws -> String? {
        guard !echo else {
            prompt()
            return try readLine(descriptor)
        }
        var original = termios()
        guard tcgetattr(descriptor, &original) == 0 else {
            throw ShareError(.ioError, "standard input: cannot read the terminal's settings: \(String(cString: strerror(errno)))")
        }
        saved = original
        savedDescriptor = descriptor
        var previousAction = sigaction()
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signalNumber in
            // Only async-signal-safe calls here: tcsetattr, write, sigaction, raise.
            _ = tcsetattr(TerminalLine.savedDescriptor, TCSANOW, &TerminalLine.saved)
            var newline: UInt8 = 0x0A
            _ = write(STDERR_FILENO, &newline, 1)
            var fallback = sigaction()
            fallback.__sigaction_handler.sa_handler = SIG_DFL
            _ = sigaction(signalNumber, &fallback, nil)
            _ = raise(signalNumber)
        }
        sigemptyset(&action.sa_mask)
        _ = sigaction(SIGINT, &action, &previousAction)
        // A parent may have left SIGINT blocked (children inherit the mask): Ctrl-C must still
        // reach the handler while echo is off.
        var interrupt = sigset_t()
        var previousMask = sigset_t()
        sigemptyset(&interrupt)
        sigaddset(&interrupt, SIGINT)
        _ = pthread_sigmask(SIG_UNBLOCK, &interrupt, &previousMask)
        var quiet = original
        quiet.c_lflag &= ~tcflag_t(ECHO)
        // ECHONL would show the newline; the caller prints one instead.
        quiet.c_lflag &= ~tcflag_t(ECHONL)
        defer {
            var restore = original
            _ = tcsetattr(descriptor, TCSANOW, &restore)
            _ = pthread_sigmask(SIG_SETMASK, &previousMask, nil)
            _ = sigaction(SIGINT, &previousAction, nil)
        }
        guard tcsetattr(descriptor, TCSAFLUSH, &quiet) == 0 else {
            throw ShareError(.ioError, "standard input: cannot turn echo off: \(String(cString: strerror(errno)))")
        }
        prompt()
        return try readLine(descriptor)
    }

    /// Bytes up to a newline, one `read` at a time so that nothing after the line is taken.
    private static func readLine(_ descriptor: Int32) throws -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = Glibc.read(descriptor, &byte, 1)
            if count < 0 {
                if errno == EINTR { continue }
                throw ShareError(.ioError, "standard input: \(String(cString: strerror(errno)))")
            }
            if count == 0 { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == 0x0A { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }
}
