import Foundation
import ShareSheet

/// One progress line per running provider, on standard error.
///
/// On a terminal the lines are redrawn in place ten times a second and erased when the
/// providers stop; elsewhere each provider gets one line when it starts and nothing is redrawn.
@MainActor
public final class ProgressDisplay {
    private let providers: [ProviderProgress]
    private let output: any TextOutput
    private let style: TerminalStyle
    private var timer: DispatchSourceTimer?
    private var frame = 0
    private var linesDrawn = 0

    /// Shows `providers` on `output`.
    public init(_ providers: [ProviderProgress], output: any TextOutput, style: TerminalStyle) {
        self.providers = providers
        self.output = output
        self.style = style
    }

    /// Draws the lines and, on a terminal, starts redrawing them.
    public func start() {
        guard style.redrawsInPlace else {
            output.write(providers.map { Self.line(name: $0.name, progress: $0.progress, frame: nil, style: style) + "\n" }.joined())
            return
        }
        output.write("\u{1B}[?25l")  // hide the cursor while lines move
        redraw()
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100))
        timer.setEventHandler { [weak self] in
            MainActor.assumeIsolated { self?.redraw() }
        }
        timer.resume()
        self.timer = timer
    }

    /// Stops redrawing and, on a terminal, erases the lines.
    public func stop() {
        guard let timer else { return }
        timer.cancel()
        self.timer = nil
        var text = linesDrawn > 0 ? "\u{1B}[\(linesDrawn)A\r\u{1B}[J" : ""
        text += "\u{1B}[?25h"
        output.write(text)
        linesDrawn = 0
    }

    private func redraw() {
        frame += 1
        var text = linesDrawn > 0 ? "\u{1B}[\(linesDrawn)A" : ""
        for provider in providers {
            text += "\r\u{1B}[K" + Self.line(name: provider.name, progress: provider.progress, frame: frame, style: style) + "\n"
        }
        linesDrawn = providers.count
        output.write(text)
    }

    /// One provider's line: its name and a bar with the percentage, or a spinner and
    /// "working…" when the total is unknown. `frame` is nil where nothing is redrawn.
    public static func line(name: String, progress: Progress, frame: Int?, style: TerminalStyle) -> String {
        let fraction: Double? =
            progress.totalUnitCount > 0 ? min(1, max(0, progress.fractionCompleted)) : nil
        return line(name: name, fraction: fraction, frame: frame, style: style)
    }

    /// One line for a known fraction (0…1), or for unknown work when `fraction` is nil.
    public static func line(name: String, fraction: Double?, frame: Int?, style: TerminalStyle) -> String {
        let barWidth = 20
        // "  NAME  [BAR] 100%": everything but the name takes 2 + 2 + (barWidth + 2) + 5 columns.
        let nameWidth = max(8, style.width - barWidth - 11)
        let shown = name.truncated(to: nameWidth)
        guard let fraction else {
            let spinner = frame.map { ["|", "/", "-", "\\"][$0 % 4] + " " } ?? ""
            return "  " + shown + "  " + style.dim(spinner + "working…")
        }
        let filled = Int((fraction * Double(barWidth)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: barWidth - filled)
        let percent = String(Int((fraction * 100).rounded(.down)))
        let percentColumn = String(repeating: " ", count: 3 - percent.count) + percent + "%"
        return "  " + shown.padded(to: nameWidth) + "  [" + style.green(bar) + "] " + percentColumn
    }
}
