import Foundation
import ShareSheet
import ShareSheetTerminal
import Sharing

/// `--verbose`: the one place where the command's and the backends' steps become lines on
/// standard error ("share: Mail: connecting to smtp://127.0.0.1:2525 …").
///
/// The backends say their steps into the `StepLog` this makes, which travels in the host
/// environment (activities) or their settings (`outbox flush`); the command says its own with
/// `say(_:)`. On a terminal each line first erases a progress line being drawn, which the next
/// redraw puts back below it.
enum VerboseLog {
    /// The log for `context`'s standard error, or nil when `--verbose` was not given.
    @MainActor
    static func make(_ enabled: Bool, context: CommandContext) -> StepLog? {
        guard enabled else { return nil }
        let output = context.standardError
        let erase = context.standardErrorIsTerminal ? "\r\u{1B}[K" : ""
        return StepLog { step in output.write(erase + Termination.prefixed(step)) }
    }

    /// How a resolved item is said: its label, its type and, when known, its size.
    static func describe(_ item: ResolvedItem, kind: ItemKind) -> String {
        var text = "item \(item.label): \(kind.description)"
        if let url = item.value as? URL, url.isFileURL {
            var info = stat()
            if stat(url.path, &info) == 0 { text += ", \(ActivityProgressLine.bytes(Int64(info.st_size)))" }
        } else if let data = item.value as? DataItem {
            text += ", \(ActivityProgressLine.bytes(Int64(data.data.count)))"
        } else if let string = item.value as? String {
            text += ", \(string.utf8.count) bytes of text"
        }
        return text
    }
}
