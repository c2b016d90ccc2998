import Foundation
import ShareSheet

/// Where a terminal presenter writes: a file descriptor, or a buffer in tests.
///
/// Implementations must guarantee that text written is passed on whole and in order.
public protocol TextOutput: AnyObject, Sendable {
    /// Writes `text` as it is (no newline is added).
    func write(_ text: String)
}

/// Writes to a file descriptor (standard output by default), retrying short and interrupted
/// writes.
public final class FileDescriptorOutput: TextOutput {
    /// The descriptor written to; it stays open and owned by the caller.
    public let descriptor: Int32

    /// Writes to `descriptor`.
    public init(descriptor: Int32 = STDOUT_FILENO) {
        self.descriptor = descriptor
    }

    /// Standard output.
    public static let standardOutput = FileDescriptorOutput(descriptor: STDOUT_FILENO)
    /// Standard error.
    public static let standardError = FileDescriptorOutput(descriptor: STDERR_FILENO)

    /// True when the descriptor is a terminal.
    public var isTerminal: Bool { isatty(descriptor) == 1 }

    public func write(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                Foundation.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}

/// Collects what is written, for tests and for measuring text before it is shown.
public final class TextBuffer: TextOutput {
    private let storage = Locked("")

    /// Makes an empty buffer.
    public init() {}

    /// Everything written so far.
    public var text: String { storage.withLock { $0 } }

    public func write(_ text: String) { storage.withLock { $0 += text } }
}
