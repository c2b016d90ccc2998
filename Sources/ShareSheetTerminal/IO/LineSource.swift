import Foundation
import ShareSheet

/// Where a terminal presenter reads what the person types, one line at a time.
///
/// Implementations must guarantee: `readLine()` never blocks the main actor (blocking reads
/// happen on another thread), returns lines without their line terminator, returns nil at the
/// end of input, and returns nil promptly when the calling task is cancelled — without losing a
/// line that arrives later, which the next call receives instead.
@MainActor
public protocol LineSource: AnyObject {
    /// The next line, without its terminator; nil at the end of input or when cancelled.
    func readLine() async -> String?
}

/// A line source that shows the prompt itself, so it can redraw it while the person edits the
/// line (libedit). The presenter hands it the prompt's last line instead of writing it.
@MainActor
public protocol PromptingLineSource: LineSource {
    /// The next line, after `prompt` (one line, no line break); nil at the end of input or
    /// when cancelled.
    func readLine(prompt: String) async -> String?
}

/// A line source that can also read a line without showing it (a PIN), for fields marked
/// `isSecret`. Sources that cannot fall back to `readLine()`.
@MainActor
public protocol SecretLineSource: LineSource {
    /// The next line, typed after `prompt` (one line) with echo off; nil at the end of input or
    /// when cancelled.
    func readSecretLine(prompt: String) async -> String?
}

/// Reads lines from a file descriptor (standard input by default) on a background thread.
///
/// The descriptor is read only while someone waits for a line, so nothing is taken from it
/// before the presenter asks.
public final class FileDescriptorLineSource: LineSource, Sendable {
    private let reader: BackgroundLineReader

    /// Reads lines from `descriptor`; the descriptor stays open and owned by the caller.
    public nonisolated init(descriptor: Int32 = STDIN_FILENO) {
        reader = BackgroundLineReader(descriptor: descriptor)
    }

    public func readLine() async -> String? {
        await reader.nextLine()
    }
}

/// The thread-safe half of `FileDescriptorLineSource`: a reading thread, buffered lines, and
/// the tasks waiting for them.
final class BackgroundLineReader: Sendable {
    private struct State {
        var pending = Data()
        var lines: [String] = []
        var waiters: [(id: Int, continuation: CheckedContinuation<String?, Never>)] = []
        var nextWaiterID = 0
        var atEnd = false
        var readerRunning = false
    }

    private let descriptor: Int32
    private let state = Locked(State())

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    func nextLine() async -> String? {
        let id = state.withLock { state -> Int in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
                let startReader = state.withLock { state -> Bool in
                    if !state.lines.isEmpty {
                        continuation.resume(returning: state.lines.removeFirst())
                        return false
                    }
                    // Checked under the lock, so a cancellation that raced ahead is never missed.
                    if state.atEnd || Task.isCancelled {
                        continuation.resume(returning: nil)
                        return false
                    }
                    state.waiters.append((id, continuation))
                    if state.readerRunning { return false }
                    state.readerRunning = true
                    return true
                }
                if startReader { startReading() }
            }
        } onCancel: {
            let cancelled = state.withLock { state -> CheckedContinuation<String?, Never>? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index).continuation
            }
            cancelled?.resume(returning: nil)
        }
    }

    private func startReading() {
        let thread = Thread { [self] in readWhileWanted() }
        thread.name = "ShareSheetTerminal input"
        thread.start()
    }

    /// Runs on the reading thread: reads while a task waits, hands lines out in order.
    private func readWhileWanted() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            let ended = count <= 0
            let keepReading = state.withLock { state -> Bool in
                if ended {
                    state.atEnd = true
                    if !state.pending.isEmpty {
                        state.lines.append(Self.line(from: state.pending))
                        state.pending.removeAll()
                    }
                } else {
                    state.pending.append(contentsOf: buffer[0..<count])
                    while let newline = state.pending.firstIndex(of: UInt8(ascii: "\n")) {
                        state.lines.append(Self.line(from: state.pending[state.pending.startIndex..<newline]))
                        state.pending.removeSubrange(state.pending.startIndex...newline)
                    }
                }
                while !state.waiters.isEmpty, !state.lines.isEmpty {
                    state.waiters.removeFirst().continuation.resume(returning: state.lines.removeFirst())
                }
                if state.atEnd {
                    for waiter in state.waiters { waiter.continuation.resume(returning: nil) }
                    state.waiters.removeAll()
                }
                let wanted = !state.atEnd && !state.waiters.isEmpty
                if !wanted { state.readerRunning = false }
                return wanted
            }
            if !keepReading { return }
        }
    }

    private static func line(from bytes: Data) -> String {
        var bytes = bytes
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}
