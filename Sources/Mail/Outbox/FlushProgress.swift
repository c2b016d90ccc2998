import Foundation
import ShareSheet

/// How far `MailDelivery.flush(progress:)` is: which message of how many, and the bytes of the
/// one being sent. Written by the flush's thread, read by whoever shows it (the command's
/// progress line, on the main actor).
public final class FlushProgress: Sendable {
    /// The message being sent. Unchecked: `Progress` guards its unit counts with its own lock,
    /// and nothing else of it is touched after it is made.
    public struct Current: @unchecked Sendable {
        /// 1 for the first message.
        public var number: Int
        /// How many messages this flush sends.
        public var count: Int
        /// Its bytes sent of its bytes (`kind == .file`).
        public var progress: Progress
    }

    private let state = Locked<Current?>(nil)

    /// Nothing sent yet.
    public init() {}

    /// The message being sent now; nil before the first and after the last.
    public var current: Current? { state.withLock { $0 } }

    func start(number: Int, of count: Int) -> Progress {
        let progress = Progress(totalUnitCount: -1)
        progress.kind = .file
        state.withLock { $0 = Current(number: number, count: count, progress: progress) }
        return progress
    }

    func end() { state.withLock { $0 = nil } }
}
