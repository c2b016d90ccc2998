import ShareSheet
import ShareSheetTerminal

/// Lines typed by a test, echoed into the transcript the way a terminal echoes typing.
///
/// Each line can run an action first (an option streaming in while the prompt waits, say).
/// After the last line it answers nil, the end of input (Ctrl-D).
@MainActor
final class ScriptedLines: LineSource {
    private var lines: [String]
    private let echo: TextBuffer?
    private var actions: [Int: @MainActor () -> Void] = [:]
    private(set) var linesRead = 0

    init(_ lines: [String], echo: TextBuffer? = nil) {
        self.lines = lines
        self.echo = echo
    }

    /// Runs `action` just before line `index` (from 0) is typed.
    func before(line index: Int, _ action: @escaping @MainActor () -> Void) {
        actions[index] = action
    }

    func readLine() async -> String? {
        await Task.yield()
        actions.removeValue(forKey: linesRead)?()
        guard !lines.isEmpty else { return nil }
        linesRead += 1
        let line = lines.removeFirst()
        echo?.write(line + "\n")
        return line
    }
}
