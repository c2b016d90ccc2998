import Foundation
import Mail
import ShareSheetTerminal

/// `share outbox flush`'s progress: the message being sent, which of how many, and its bytes
/// ("  Mail 2 of 3  [######--------] 30%  4.1 MB of 13 MB  2.0 MB/s  5 s left"), drawn by the
/// same line as an activity's.
enum FlushProgressLine {
    /// Starts the line on standard error when it is a terminal and `--quiet` was not given.
    @MainActor
    static func start(_ progress: FlushProgress, quiet: Bool, context: CommandContext) -> ActivityProgressLine? {
        guard context.standardErrorIsTerminal, !quiet else { return nil }
        let line = ActivityProgressLine(
            source: {
                progress.current.map { (title: "Mail \($0.number) of \($0.count)", progress: $0.progress) }
            }, output: context.standardError,
            style: context.style(forTerminal: context.standardErrorIsTerminal, descriptor: STDERR_FILENO))
        line.start()
        return line
    }
}
