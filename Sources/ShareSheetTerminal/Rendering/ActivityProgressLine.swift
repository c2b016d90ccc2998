import Foundation
import ShareSheet

/// The running activity's progress on standard error, in the style of curl and rsync: a bar,
/// and for work counted in bytes (`Progress.kind == .file`) how much, how fast and how long is
/// left ("  Mail  [#######-------] 35%  17.5 MB of 50.0 MB  4.2 MB/s  8 s left").
///
/// Drawn only on a terminal, redrawn in place five times a second while the activity runs, and
/// erased when it ends; nothing at all elsewhere (a pipe, a log).
@MainActor
public final class ActivityProgressLine {
    private let running: () -> Activity?
    private let output: any TextOutput
    private let style: TerminalStyle
    private var timer: DispatchSourceTimer?
    private var drawn = false
    private var samples: [(time: Date, completed: Int64)] = []

    /// Follows the progress of the activity `running` returns (nil while none runs yet).
    public init(running: @escaping () -> Activity?, output: any TextOutput, style: TerminalStyle) {
        self.running = running
        self.output = output
        self.style = style
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
        guard let activity = running() else { return }
        let progress = activity.progress
        guard progress.totalUnitCount > 0 else { return }
        let title = activity.activityTitle ?? "Sharing"
        let completed = progress.completedUnitCount
        let now = Date()
        samples.append((now, completed))
        // The rate over the last three seconds: steady enough to read, quick to follow a change.
        samples.removeAll { now.timeIntervalSince($0.time) > 3 }
        let fraction = min(1, max(0, progress.fractionCompleted))
        let filled = Int((fraction * 20).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: 20 - filled)
        var line = "  " + title.truncated(to: 24) + "  [" + bar + "] " + String(Int((fraction * 100).rounded(.down))) + "%"
        if progress.kind == .file {
            line += "  " + Self.bytes(completed) + " of " + Self.bytes(progress.totalUnitCount)
            if let first = samples.first, now.timeIntervalSince(first.time) > 0.5, completed > first.completed {
                let rate = Double(completed - first.completed) / now.timeIntervalSince(first.time)
                line += "  " + Self.bytes(Int64(rate)) + "/s"
                let left = Double(progress.totalUnitCount - completed) / rate
                if left.isFinite, left >= 0 { line += "  " + Self.duration(left) + " left" }
            }
        }
        // Cut to the terminal's width first (a wrapped line cannot be redrawn in place), then
        // color the bar if it is still whole.
        var shown = line.truncated(to: style.width - 1)
        if let range = shown.range(of: "[" + bar + "]") {
            shown.replaceSubrange(range, with: "[" + style.green(bar) + "]")
        }
        output.write("\r\u{1B}[K" + shown)
        drawn = true
    }

    /// "17.5 MB", "812 kB", "96 B" (decimal units, as file managers show sizes).
    public static func bytes(_ count: Int64) -> String {
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
    public static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        if whole < 60 { return "\(whole) s" }
        if whole < 3600 { return "\(whole / 60) min " + String(format: "%02d", whole % 60) + " s" }
        return "\(whole / 3600) h " + String(format: "%02d", (whole % 3600) / 60) + " min"
    }
}
