import Foundation
import ShareSheet

/// Long work's progress on standard error, in the style of curl and rsync: a bar, and for work
/// counted in bytes (`Progress.kind == .file`) how much, how fast and how long is left
/// ("  Mail  [#######-------] 35%  17.5 MB of 50.0 MB  4.2 MB/s  8 s left"); for work counted in
/// pages (`.page`) which page ("  Print  [###-----] 30%  page 12 of 40").
///
/// It follows whatever its source returns: the running activity's progress (Mail, AirDrop, Save
/// to Photos, Print), or the message `share outbox flush` is sending, or the file `share
/// receive` is receiving. Drawn only on a terminal, redrawn in place five times a second while
/// there is something to show, and erased when it stops; nothing at all elsewhere (a pipe, a log).
@MainActor
public final class ActivityProgressLine {
    /// What the line shows: a title and the progress it follows.
    public typealias Source = () -> (title: String, progress: Progress)?

    private let source: Source
    private let output: any TextOutput
    private let style: TerminalStyle
    private var timer: DispatchSourceTimer?
    private var drawn = false
    private var samples: [(time: Date, completed: Int64)] = []
    /// The progress the samples are of: a new one (the next message, the next file) starts a
    /// new rate.
    private var sampled: ObjectIdentifier?

    /// Follows what `source` returns (nil while there is nothing to show).
    public init(source: @escaping Source, output: any TextOutput, style: TerminalStyle) {
        self.source = source
        self.output = output
        self.style = style
    }

    /// Follows the progress of the activity `running` returns (nil while none runs yet).
    public convenience init(running: @escaping () -> Activity?, output: any TextOutput, style: TerminalStyle) {
        self.init(
            source: { running().map { (title: $0.activityTitle ?? "Sharing", progress: $0.progress) } }, output: output,
            style: style)
    }

    /// Starts drawing; does nothing where the output is not a terminal.
    public func start() {
        guard style.redrawsInPlace, timer == nil else { return }
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now() + .milliseconds(200), repeating: .milliseconds(200))
        timer.setEventHandler { [weak self] in
            MainActor.assumeIsolated { self?.redraw() }
        }
        timer.resume()
        self.timer = timer
    }

    /// Stops drawing and erases the line.
    public func stop() {
        timer?.cancel()
        timer = nil
        if drawn { output.write("\r\u{1B}[K") }
        drawn = false
    }

    private func redraw() {
        guard let (title, progress) = source() else { return }
        let total = progress.totalUnitCount
        guard total > 0 else { return }
        let fraction = min(1, max(0, progress.fractionCompleted))
        // Children (one per file) count in the fraction but not in completedUnitCount.
        let completed = max(progress.completedUnitCount, Int64((fraction * Double(total)).rounded(.down)))
        let now = Date()
        if sampled != ObjectIdentifier(progress) {
            sampled = ObjectIdentifier(progress)
            samples = []
        }
        samples.append((now, completed))
        // The rate over the last three seconds: steady enough to read, quick to follow a change.
        samples.removeAll { now.timeIntervalSince($0.time) > 3 }
        let rate = samples.first.flatMap { first -> Double? in
            let span = now.timeIntervalSince(first.time)
            return span > 0.5 && completed > first.completed ? Double(completed - first.completed) / span : nil
        }
        let line = Self.line(
            title: title, kind: progress.kind, completed: completed, total: total, rate: rate,
            waitingForAnswer: progress.isUpload && completed >= total)
        // Cut to the terminal's width first (a wrapped line cannot be redrawn in place), then
        // color the bar if it is still whole.
        var shown = line.truncated(to: style.width - 1)
        if let range = shown.range(of: #"\[[#-]{20}\]"#, options: .regularExpression) {
            let bar = shown[range].dropFirst().dropLast()
            shown.replaceSubrange(range, with: "[" + style.green(String(bar)) + "]")
        }
        output.write("\r\u{1B}[K" + shown)
        drawn = true
    }

    /// The uncolored line for `completed` of `total` units of `kind`, with `rate` units a second
    /// when known: the bar and percentage, then bytes, rate and time left (`.file`) or the page
    /// (`.page`). With `waitingForAnswer` (an upload whose bytes are all sent), the size sent
    /// and that the server has yet to answer, instead of a bar standing still at 100 %.
    public nonisolated static func line(
        title: String, kind: ProgressKind?, completed: Int64, total: Int64, rate: Double?, waitingForAnswer: Bool = false
    ) -> String {
        if waitingForAnswer {
            let size = kind == .file ? bytes(total) + " sent, " : "sent, "
            return "  " + title.truncated(to: 24) + "  " + size + "waiting for the server…"
        }
        let fraction = total > 0 ? min(1, max(0, Double(completed) / Double(total))) : 0
        let filled = Int((fraction * 20).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: 20 - filled)
        var line = "  " + title.truncated(to: 24) + "  [" + bar + "] " + String(Int((fraction * 100).rounded(.down))) + "%"
        switch kind {
        case .file?:
            line += "  " + bytes(completed) + " of " + bytes(total)
            if let rate, rate > 0 {
                line += "  " + bytes(Int64(rate)) + "/s"
                let left = Double(total - completed) / rate
                if left.isFinite, left >= 0 { line += "  " + duration(left) + " left" }
            }
        case .page?:
            // The page being drawn: one past those done, never past the last.
            line += "  page \(min(total, completed + 1)) of \(total)"
        default:
            break
        }
        return line
    }

    /// "17.5 MB", "812 kB", "96 B" (decimal units, as file managers show sizes).
    public nonisolated static func bytes(_ count: Int64) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var value = Double(count)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(count) B" : String(format: value < 10 ? "%.1f %@" : "%.0f %@", value, units[unit])
    }

    /// "8 s", "2 min 05 s", "1 h 04 min".
    public nonisolated static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        if whole < 60 { return "\(whole) s" }
        if whole < 3600 { return "\(whole / 60) min " + String(format: "%02d", whole % 60) + " s" }
        return "\(whole / 3600) h " + String(format: "%02d", (whole % 3600) / 60) + " min"
    }
}
