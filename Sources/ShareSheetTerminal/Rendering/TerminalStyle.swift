import Foundation

/// How a terminal presenter may draw: how wide the screen is, whether it may redraw in place,
/// and whether it may use color.
public struct TerminalStyle: Sendable, Equatable {
    /// Columns available; text wraps to fit.
    public var width: Int
    /// True when the output is a terminal: progress is redrawn in place with `\r` and ANSI codes.
    public var redrawsInPlace: Bool
    /// True when ANSI colors and weights may be used.
    public var usesColor: Bool
    /// Rows on the screen, when known: the arrow-key picker shows no more than fit.
    public var rows: Int?

    /// Describes a style.
    public init(width: Int = 80, redrawsInPlace: Bool = false, usesColor: Bool = false, rows: Int? = nil) {
        self.rows = rows.map { max(8, $0) }
        self.width = max(20, width)
        self.redrawsInPlace = redrawsInPlace
        self.usesColor = usesColor && redrawsInPlace
    }

    /// Plain text, 80 columns: what a pipe, a file or a test gets.
    public static let plain = TerminalStyle()

    /// The style for output written to `descriptor`: in-place redraws only on a terminal whose
    /// `TERM` is not `dumb`, color only then and when `NO_COLOR` is unset or empty, the width from
    /// `COLUMNS`, else from the terminal, else 80.
    public static func detect(
        descriptor: Int32, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> TerminalStyle {
        let isTerminal = isatty(descriptor) == 1 && environment["TERM"] != "dumb"
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        return TerminalStyle(
            width: columns(descriptor: descriptor, environment: environment),
            redrawsInPlace: isTerminal, usesColor: isTerminal && !noColor,
            rows: isTerminal ? rows(descriptor: descriptor, environment: environment) : nil)
    }

    /// The height from `LINES`, else the terminal's; nil when neither says.
    public static func rows(descriptor: Int32, environment: [String: String]) -> Int? {
        if let text = environment["LINES"], let rows = Int(text), rows > 0 { return rows }
        var size = winsize()
        if ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 { return Int(size.ws_row) }
        return nil
    }

    /// The width from `COLUMNS`, else the terminal's, else 80.
    public static func columns(descriptor: Int32, environment: [String: String]) -> Int {
        if let text = environment["COLUMNS"], let columns = Int(text), columns > 0 { return columns }
        var size = winsize()
        if ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }

    // MARK: Decorations (empty without color)

    func bold(_ text: String) -> String { usesColor ? "\u{1B}[1m\(text)\u{1B}[22m" : text }
    func dim(_ text: String) -> String { usesColor ? "\u{1B}[2m\(text)\u{1B}[22m" : text }
    func red(_ text: String) -> String { usesColor ? "\u{1B}[31m\(text)\u{1B}[39m" : text }
    func green(_ text: String) -> String { usesColor ? "\u{1B}[32m\(text)\u{1B}[39m" : text }
}
