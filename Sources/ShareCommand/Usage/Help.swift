import Foundation

/// The text of `share --help` and `share --version`.
enum Help {
    /// The version `share --version` prints.
    static let version = "0.1.0"

    /// The help, naming the activities of the registry.
    /// - Parameter subcommandUsage: the usage lines of this build's subcommands.
    static func text(activityNames: [String], subcommandUsage: [String] = []) -> String {
        var lines: [String] = []
        var line = "ACTIVITY is one of:"
        let words = activityNames.map { $0 + "," } + ["or", "a", "raw", "activity", "type."]
        for word in words {
            if line.count + 1 + word.count > 80 {
                lines.append(line)
                line = " "
            }
            line += " " + word
        }
        lines.append(line)
        let subcommands = subcommandUsage.flatMap(usageLines).map { $0 + "\n" }.joined()
        return template.replacingOccurrences(of: "@NAMES@", with: lines.joined(separator: "\n"))
            .replacingOccurrences(of: "@SUBCOMMANDS@\n", with: subcommands)
            .replacingOccurrences(of: "@OPTIONS@\n", with: ShareOptions.helpLines)
            .replacingOccurrences(of: "@EXIT@\n", with: ExitStatuses.helpLines)
    }

    /// Lays out one "command   description" usage line like the others: the description from
    /// column 38, or on lines of its own under the command when both do not fit in 80 columns.
    static func usageLines(_ usage: String) -> [String] {
        let trimmed = usage.trimmingCharacters(in: .whitespaces)
        // A line that starts with spaces continues the description above it.
        if usage.hasPrefix("   ") { return ["      " + trimmed] }
        let parts = trimmed.components(separatedBy: "   ")
        let command = parts[0]
        let description = parts.dropFirst().joined(separator: " ").trimmingCharacters(in: .whitespaces)
        if description.isEmpty { return ["  " + command] }
        let column = 37
        let head = "  " + command
        if head.count < column - 1, column + description.count <= 80 {
            return [head + String(repeating: " ", count: column - head.count) + description]
        }
        var lines = [head]
        var line = String(repeating: " ", count: 6)
        for word in description.split(separator: " ") {
            if line.count + word.count + 1 > 80, line.trimmingCharacters(in: .whitespaces).count > 0 {
                lines.append(line)
                line = String(repeating: " ", count: 6)
            }
            line += (line.hasSuffix(" ") ? "" : " ") + word
        }
        lines.append(line)
        return lines
    }

    private static let template = """
        share: send files, links and text to the activities of a share sheet.

        Usage:
          share [options] ITEM...            open the sheet: a window on a desktop,
                                             else in this terminal
          share --list [--json] ITEM...      what would be offered, and what not and why
          share --explain ACTIVITY ITEM...   why an activity is or is not offered
          share --activity ACTIVITY ITEM...  perform one activity without the sheet
          share help ACTIVITY|config         what an activity does here; every setting
        @SUBCOMMANDS@

        ITEM is a file path, an http(s) URL, another scheme's URL (mailto:, sms:, tel:,
        geo:…), a file:// URL, or - for standard input (UTF-8 text is shared as text,
        anything else as data named stdin.EXT).

        Options:
        @OPTIONS@

        @NAMES@

        Examples:
          share report.pdf                       pick an activity for report.pdf
          share --list photo.jpg https://swift.org
          share --explain reading-list notes.txt
          share --activity mail --to ana@example.com --subject "Q3" report.pdf
          echo "see you at 6" | share --activity message --to +15551234567 -
          share --activity copy --json --text "hello"

        Exit status:
        @EXIT@

        The sheet is a window when DISPLAY or WAYLAND_DISPLAY is set, else it is drawn
        in this terminal. With --activity, a terminal on standard input is asked only
        what the command line left out (Mail's To, a receiver's PIN); without one the
        command never prompts. Progress goes to standard error, on a terminal only;
        NO_COLOR turns colors off.

        """
}
