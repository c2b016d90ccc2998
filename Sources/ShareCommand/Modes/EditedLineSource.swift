import CEdit
import Dispatch
import Foundation
import ShareSheet
import ShareSheetTerminal

/// Lines typed on a terminal with libedit: arrows, Ctrl-A/Ctrl-E, word deletion, and the
/// answers given earlier in this run as history. Used only when standard input and output are
/// both a terminal; otherwise the sheet reads plain lines.
///
/// libedit is one global editor, so lines are read one at a time, on a queue of their own
/// (never the main actor). Characters come through `nextCharacter`, which polls, so a dismissed
/// sheet (Ctrl-C, say) ends the read at once: libedit then puts the terminal back itself, and
/// the settings kept before each read are restored at exit should the process end first.
final class EditedLineSource: PromptingLineSource, SecretLineSource, Sendable {
    private static let queue = DispatchQueue(label: "share.libedit")

    init() {}

    func readLine() async -> String? {
        await readLine(prompt: "")
    }

    func readLine(prompt: String) async -> String? {
        await onEditorQueue { token in Self.read(prompt: prompt, token: token) }
    }

    /// A line typed with echo off (a PIN), read on the same queue as edited lines, so the two
    /// never take turns at the terminal; a dismissed sheet ends it as it ends an edited line.
    func readSecretLine(prompt: String) async -> String? {
        await onEditorQueue { token in Self.readSecret(prompt: prompt, token: token) }
    }

    /// Runs `read` on the libedit queue with a token of its own, which the task's cancellation
    /// cancels (the character hook then gives up).
    private func onEditorQueue(_ read: @escaping @Sendable (Int) -> String?) async -> String? {
        let token = LineEditorState.begin()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
                Self.queue.async { continuation.resume(returning: read(token)) }
            }
        } onCancel: {
            LineEditorState.cancel(token)
        }
    }

    /// Runs on the libedit queue: echo off, the prompt, bytes up to Enter, echo back on.
    private nonisolated static func readSecret(prompt: String, token: Int) -> String? {
        LineEditorState.start(token)
        guard !LineEditorState.isCancelled(token) else { return nil }
        TerminalSettings.keep(STDIN_FILENO)
        defer { TerminalSettings.forget() }
        var original = termios()
        let canSilence = tcgetattr(STDIN_FILENO, &original) == 0
        if canSilence {
            var quiet = original
            // ECHONL would show the newline; one is written below instead.
            quiet.c_lflag &= ~tcflag_t(ECHO | ECHONL)
            _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        }
        defer { if canSilence { _ = tcsetattr(STDIN_FILENO, TCSANOW, &original) } }
        // Said once echo is off: keys typed as soon as the prompt shows stay hidden.
        writeAll(prompt)
        defer { writeAll("\n") }
        var bytes: [UInt8] = []
        while true {
            let byte = nextTypedByte()
            if byte < 0 { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == 0x0A || byte == 0x0D { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(UInt8(byte))
        }
    }

    private nonisolated static func writeAll(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }

    /// Runs on the libedit queue.
    private nonisolated static func read(prompt: String, token: Int) -> String? {
        LineEditorState.start(token)
        guard !LineEditorState.isCancelled(token) else { return nil }
        let hasUTF8 = LineEditorState.configureOnce()
        TerminalSettings.keep(STDIN_FILENO)
        defer { TerminalSettings.forget() }
        guard let pointer = CEdit.readline(hasUTF8 ? prompt : PromptText.ascii(prompt)) else { return nil }
        defer { free(pointer) }
        let line = String(decoding: UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)), as: UTF8.self)
        if !line.trimmingCharacters(in: .whitespaces).isEmpty { add_history(pointer) }
        return line
    }
}

/// Which read is under way and which were cancelled, shared with libedit's character hook.
enum LineEditorState {
    private struct State {
        var nextToken = 0
        var current = 0
        var cancelled: Set<Int> = []
        var configured = false
        var hasUTF8 = false
    }

    private static let state = Locked(State())

    static func begin() -> Int {
        state.withLock { state in
            state.nextToken += 1
            return state.nextToken
        }
    }

    static func start(_ token: Int) { state.withLock { $0.current = token } }

    static func cancel(_ token: Int) { state.withLock { _ = $0.cancelled.insert(token) } }

    static func isCancelled(_ token: Int) -> Bool { state.withLock { $0.cancelled.contains(token) } }

    static var currentIsCancelled: Bool { state.withLock { $0.cancelled.contains($0.current) } }

    /// Sets libedit up on the first read; true when the character locale is UTF-8, so a
    /// prompt may hold any character (see `cedit_use_utf8_locale`).
    static func configureOnce() -> Bool {
        let first = state.withLock { state -> Bool in
            defer { state.configured = true }
            return !state.configured
        }
        if first {
            let hasUTF8 = cedit_use_utf8_locale() != 0
            cedit_configure(nextCharacter)
            state.withLock { $0.hasUTF8 = hasUTF8 }
        }
        return state.withLock { $0.hasUTF8 }
    }
}

/// libedit's character hook: the next character typed on standard input as a Unicode code
/// point (libedit takes it as one wide character), or -1 at the end of input or once the
/// read was cancelled.
private func nextCharacter(_ stream: UnsafeMutablePointer<FILE>?) -> Int32 {
    let first = nextTypedByte()
    guard first >= 0x80 else { return first }
    let length = first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 1
    var bytes = [UInt8(first)]
    for _ in 1..<max(length, 1) {
        let next = nextTypedByte()
        guard next >= 0 else { return -1 }
        bytes.append(UInt8(next))
    }
    guard let scalar = String(decoding: bytes, as: UTF8.self).unicodeScalars.first else { return 0xFFFD }
    return Int32(scalar.value)
}

/// The next byte typed on standard input, or -1 at the end of input or once the current read
/// was cancelled; polls, so that a cancellation is seen within a tenth of a second.
private func nextTypedByte() -> Int32 {
    while true {
        if LineEditorState.currentIsCancelled { return -1 }
        var poller = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, 100)
        if ready < 0 { if errno == EINTR { continue } else { return -1 } }
        if ready == 0 { continue }
        var byte: UInt8 = 0
        let count = read(STDIN_FILENO, &byte, 1)
        if count < 0, errno == EINTR || errno == EAGAIN { continue }
        return count == 1 ? Int32(byte) : -1
    }
}
