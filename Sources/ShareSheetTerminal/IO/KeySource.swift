import Foundation
import ShareSheet

/// One key as the arrow-key picker understands it.
public enum Key: Equatable, Sendable {
    case up
    case down
    case enter
    case backspace
    case escape
    /// Ctrl-C: raw mode turns it into a byte instead of a signal.
    case interrupt
    /// Ctrl-D.
    case endOfInput
    case character(Character)
    /// Anything else (other escape sequences, other control keys): ignored.
    case other
}

/// Where the arrow-key picker reads keys: a terminal in raw mode.
///
/// Implementations must guarantee: `nextKey()` never blocks the main actor, returns nil
/// promptly when the calling task is cancelled, and reads nothing once `leaveRawMode()` has
/// been called (so the line-by-line fields that follow get every byte typed after the pick).
@MainActor
public protocol KeySource: AnyObject {
    /// Switches the terminal to raw mode; false when it cannot (then the numbered pick is used).
    func enterRawMode() -> Bool
    /// The next key; nil when cancelled or when the input ended.
    func nextKey() async -> Key?
    /// Puts the terminal back as it was; harmless when it is not in raw mode.
    func leaveRawMode()
}

/// Reads keys from a terminal descriptor (standard input by default) in raw mode, on a
/// background thread that polls, so it stops as soon as nobody waits.
///
/// The terminal's settings are also restored when the process exits while raw mode is on
/// (`exit` from an error path), so a shell is never left without echo.
public final class TerminalKeySource: KeySource, Sendable {
    private let descriptor: Int32
    private let pending = Locked<[UInt8]>([])

    /// Reads keys from `descriptor`, which stays open and owned by the caller.
    public nonisolated init(descriptor: Int32 = STDIN_FILENO) {
        self.descriptor = descriptor
    }

    public func enterRawMode() -> Bool {
        RawMode.enter(descriptor)
    }

    public func leaveRawMode() {
        RawMode.leave()
    }

    public func nextKey() async -> Key? {
        let stopped = Locked(false)
        let descriptor = descriptor
        let pending = pending
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Key?, Never>) in
                let thread = Thread {
                    continuation.resume(returning: Self.readKey(descriptor, pending: pending, stopped: stopped))
                }
                thread.name = "ShareSheetTerminal keys"
                thread.start()
            }
        } onCancel: {
            stopped.withLock { $0 = true }
        }
    }

    /// Runs on the key thread: waits for bytes (in short polls, so a cancellation is seen),
    /// until they make one key.
    private nonisolated static func readKey(_ descriptor: Int32, pending: Locked<[UInt8]>, stopped: Locked<Bool>) -> Key? {
        while true {
            if stopped.withLock({ $0 }) { return nil }
            if let key = pending.withLock({ bytes in KeyDecoder.decode(&bytes, complete: false) }) { return key }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 100)
            if ready < 0, errno != EINTR { return nil }
            if ready == 0 {
                // Nothing more came: a lone ESC is the Escape key.
                if let key = pending.withLock({ bytes in bytes.isEmpty ? nil : KeyDecoder.decode(&bytes, complete: true) }) {
                    return key
                }
                continue
            }
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            if count <= 0 { return pending.withLock { $0.isEmpty } ? .endOfInput : .other }
            pending.withLock { $0 += buffer[0..<count] }
        }
    }
}

/// Turns the bytes a terminal sends into keys.
enum KeyDecoder {
    /// Takes one key off the front of `bytes`; nil when they do not make a whole key yet.
    /// With `complete`, what is there is all there will be (a lone ESC is Escape).
    static func decode(_ bytes: inout [UInt8], complete: Bool) -> Key? {
        guard let first = bytes.first else { return nil }
        switch first {
        case 0x1B:
            guard bytes.count > 1 else {
                if complete {
                    bytes.removeFirst()
                    return .escape
                }
                return nil
            }
            guard bytes[1] == UInt8(ascii: "[") || bytes[1] == UInt8(ascii: "O") else {
                bytes.removeFirst()
                return .escape
            }
            // CSI or SS3: parameters, then a final byte in 0x40…0x7E.
            guard let end = bytes.indices.dropFirst(2).first(where: { (0x40...0x7E).contains(bytes[$0]) }) else {
                if complete {
                    bytes.removeAll()
                    return .other
                }
                return nil
            }
            let final = bytes[end]
            bytes.removeSubrange(0...end)
            switch final {
            case UInt8(ascii: "A"): return .up
            case UInt8(ascii: "B"): return .down
            default: return .other
            }
        case 0x0D, 0x0A:
            bytes.removeFirst()
            return .enter
        case 0x7F, 0x08:
            bytes.removeFirst()
            return .backspace
        case 0x03:
            bytes.removeFirst()
            return .interrupt
        case 0x04:
            bytes.removeFirst()
            return .endOfInput
        case 0x10:  // Ctrl-P, as in Emacs and shells
            bytes.removeFirst()
            return .up
        case 0x0E:  // Ctrl-N
            bytes.removeFirst()
            return .down
        case 0..<0x20:
            bytes.removeFirst()
            return .other
        default:
            let length = first < 0x80 ? 1 : first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 1
            guard bytes.count >= length else {
                if complete {
                    bytes.removeAll()
                    return .other
                }
                return nil
            }
            let text = String(decoding: bytes[0..<length], as: UTF8.self)
            bytes.removeSubrange(0..<length)
            return text.first.map(Key.character) ?? .other
        }
    }
}

/// The terminal's settings as they were before the sheet changed them (raw mode for keys,
/// libedit's mode for fields), kept so every way out puts them back: the sheet's own exits, and
/// `exit` from an error path (an `atexit` hook).
public enum TerminalSettings {
    private static let saved = Locked<(descriptor: Int32, settings: termios)?>(nil)
    private static let exitHookInstalled = Locked(false)

    /// Keeps `descriptor`'s current settings to restore later; false when it is not a terminal.
    @discardableResult
    public static func keep(_ descriptor: Int32) -> Bool {
        var settings = termios()
        guard isatty(descriptor) == 1, tcgetattr(descriptor, &settings) == 0 else { return false }
        let installHook = exitHookInstalled.withLock { installed -> Bool in
            defer { installed = true }
            return !installed
        }
        if installHook { atexit { TerminalSettings.restore() } }
        saved.withLock { $0 = (descriptor, settings) }
        return true
    }

    /// Puts the kept settings back, once; harmless when none are kept.
    public static func restore() {
        guard var entry = saved.withLock({ state -> (descriptor: Int32, settings: termios)? in
            defer { state = nil }
            return state
        }) else { return }
        tcsetattr(entry.descriptor, TCSANOW, &entry.settings)
    }

    /// Forgets the kept settings without touching the terminal (whoever changed it put it back).
    public static func forget() {
        saved.withLock { $0 = nil }
    }
}

/// Raw mode for the arrow-key picker.
enum RawMode {
    /// Raw input (no echo, no line editing, Ctrl-C as a byte); output is left alone so "\n"
    /// still starts a new line.
    static func enter(_ descriptor: Int32) -> Bool {
        var settings = termios()
        guard isatty(descriptor) == 1, tcgetattr(descriptor, &settings) == 0 else { return false }
        var raw = settings
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | INLCR)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard TerminalSettings.keep(descriptor) else { return false }
        guard tcsetattr(descriptor, TCSAFLUSH, &raw) == 0 else {
            TerminalSettings.forget()
            return false
        }
        return true
    }

    /// Restores the settings from before raw mode.
    static func leave() {
        TerminalSettings.restore()
    }
}
