import Foundation
import ShareSheet

/// A thread-safe list of what happened, in order, for tests that pin a call sequence.
public final class CallLog: Sendable {
    /// One recorded call.
    public struct Entry: Sendable, Equatable, CustomStringConvertible {
        /// What was called, e.g. "placeholder(0)".
        public var name: String
        /// True when it ran on the main thread.
        public var onMainThread: Bool
        /// When it was recorded.
        public var time: Date

        public var description: String { name }

        public static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.name == rhs.name && lhs.onMainThread == rhs.onMainThread
        }
    }

    private let entries = Locked<[Entry]>([])

    /// Makes an empty log.
    public init() {}

    /// Records a call.
    public func record(_ name: String) {
        let entry = Entry(name: name, onMainThread: Thread.isMainThread, time: Date())
        entries.withLock { $0.append(entry) }
    }

    /// Every call so far.
    public var all: [Entry] { entries.withLock { $0 } }

    /// The names of every call so far.
    public var names: [String] { all.map(\.name) }

    /// The entries whose names start with `prefix`.
    public func entries(startingWith prefix: String) -> [Entry] { all.filter { $0.name.hasPrefix(prefix) } }

    /// Forgets everything recorded.
    public func clear() { entries.withLock { $0.removeAll() } }
}
