import Foundation

/// Where a share says what each of its steps does, for a front end that asks for it
/// (`share --verbose`): "connecting to smtp://127.0.0.1:2525", "spooled to Outbox/new/…",
/// "sent 3 files to 'Phone'".
///
/// It travels in the `HostEnvironment` the registry hands every activity, so a backend says a
/// step with `hostEnvironment.steps?.say(…)` from any thread and never prints on its own; with no
/// log set (the default, and every caller that did not ask) nothing is said and nothing is built.
public final class StepLog: Sendable {
    private let sink: @Sendable (String) -> Void

    /// A log that hands each step, one line without its newline, to `sink` (called on the
    /// thread that says it; the sink serializes what it writes).
    public init(_ sink: @escaping @Sendable (String) -> Void) {
        self.sink = sink
    }

    /// Says one step. The text is built only when a log is set: `steps?.say("…")`.
    public func say(_ step: @autoclosure () -> String) {
        sink(step())
    }
}

extension ProgressKind {
    /// Work counted in pages (printing): a front end shows "page 12 of 40" rather than bytes.
    public static let page = ProgressKind(rawValue: "org.sharesheet.progress.page")
}
