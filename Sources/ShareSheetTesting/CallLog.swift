import Foundation
import ShareSheet

/// A thread-safe list of what happened, in order, for tests that pin a call sequence.
public final class CallLog: Sendable {
    /// One recorded call.
    public struct Entry: Sendable, Equatable, CustomStringConvertible {
        /// What was called, e.g. "placeholder(0)".
        public var name: String
        /// True when it ran on the main actor (the main dispatch queue), whichever thread
        /// serves it.
        public var onMainActor: Bool
        /// When it was recorded.
        public var time: Date

        public var description: String { name }

        public static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.name == rhs.name && lhs.onMainActor == rhs.onMainActor
        }
    }

    private let entries = Locked<[Entry]>([])

    /// Makes an empty log.
    public init() {}

    /// Records a call.
    public func record(_ name: String) {
        let entry = Entry(name: name, onMainActor: MainQueue.isCurrent, time: Date())
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

/// Tells whether code runs on the main dispatch queue, which is the main actor's executor on
/// Linux. `Thread.isMainThread` cannot tell: a test runner may serve the main queue elsewhere.
public enum MainQueue {
    private static let key = DispatchSpecificKey<Bool>()
    private static let marked: Bool = {
        DispatchQueue.main.setSpecific(key: key, value: true)
        return true
    }()

    /// True when the caller runs on the main queue.
    public static var isCurrent: Bool {
        _ = marked
        return DispatchQueue.getSpecific(key: key) ?? false
    }
}
