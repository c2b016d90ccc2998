import ShareSheet

/// The text of an activity's interface in the terminal: a title, then one prompt per field.
@MainActor
public enum InterfaceScreen {
    /// The title block shown before the first field; how to answer only when `asks` (Print
    /// with no printer asks nothing, and says so in its message).
    public static func header(_ interface: ActivityInterface, style: TerminalStyle, asks: Bool = true) -> String {
        var text = "\n" + style.bold(interface.title) + "\n"
        if let message = interface.message, !message.isEmpty {
            text += TextWidth.wrap(message, width: style.width).joined(separator: "\n") + "\n"
        }
        return asks ? text + style.dim("(Enter keeps the value in brackets; Ctrl-D cancels.)") + "\n" : text
    }

    /// The lines shown before a field's prompt: its help, and a choice's options.
    public static func preamble(for field: InterfaceField, style: TerminalStyle) -> String {
        var text = ""
        if let help = field.help, !help.isEmpty {
            for line in TextWidth.wrap(help, width: style.width - 2) { text += style.dim("  " + line) + "\n" }
        }
        if let limit = field.textLimit {
            // The window counts down as the person types; a terminal says the limit before and
            // the count after (`countLine`).
            let used = (field.defaultValue?.text).map { limit.count($0) } ?? 0
            let now = used > 0 ? "; the text in brackets uses \(used)" : ""
            text += style.dim("  At most \(limit.maximum) characters\(now).") + "\n"
        }
        if case .choice(let options) = field.kind {
            for (index, option) in options.current.enumerated() {
                text += optionLine(option, number: index + 1, style: style) + "\n"
            }
            if !options.isComplete { text += style.dim("  (looking for more…)") + "\n" }
        }
        return text
    }

    /// After a text with a limit is given: how much of the limit it uses, or by how much it is
    /// over (then it is asked again). Nil for a field without a limit.
    public static func countLine(for field: InterfaceField, value: InterfaceValue?, style: TerminalStyle) -> (line: String, isOver: Bool)? {
        guard let limit = field.textLimit, let text = value?.text else { return nil }
        let used = limit.count(text)
        if used > limit.maximum {
            return (problemLine("\(used) characters, \(used - limit.maximum) over the \(limit.maximum) this takes: shorten it", style: style), true)
        }
        return (style.dim("  \(used) of \(limit.maximum) characters") + "\n", false)
    }

    /// One numbered option of a choice field.
    public static func optionLine(_ option: ChoiceOptions.Option, number: Int, style: TerminalStyle) -> String {
        var line = "  " + style.bold("\(number))") + " " + option.title
        // A warning is read, not skimmed: "(!)" and not dimmed.
        if let detail = option.detail, !detail.isEmpty { line += "  " + (option.isWarning ? "(!) " + detail : style.dim(detail)) }
        return line.truncated(to: style.width)
    }

    /// The prompt for a field: its label, how to enter it, and its default in brackets.
    public static func prompt(for field: InterfaceField) -> String {
        var text = field.label
        switch field.kind {
        case .text:
            break
        case .multilineText:
            text += " (end with a line holding only \".\")"
        case .emailAddresses:
            text += " (e-mail addresses, comma-separated)"
        case .phoneNumbers:
            text += " (phone numbers, comma-separated)"
        case .choice:
            text += " (number or name)"
        case .toggle:
            let on: Bool
            if case .bool(let flag)? = field.defaultValue { on = flag } else { on = false }
            return text + (on ? " [Y/n]: " : " [y/N]: ")
        case .integer(let range):
            text += " (\(range.lowerBound)–\(range.upperBound))"
        }
        if let shown = defaultText(for: field) { text += " [\(shown)]" }
        if field.kind.isMultiline { return text + ":\n" }
        return text + ": "
    }

    /// A field the caller filled ahead (`--to`, `--subject`), shown instead of asked: "To: ana@example.com".
    public static func presetLine(for field: InterfaceField, style: TerminalStyle) -> String {
        let shown = defaultText(for: field) ?? ""
        let oneLine = shown.split(whereSeparator: \.isNewline).joined(separator: " ")
        return field.label + ": " + oneLine + "  " + style.dim("(given ahead)") + "\n"
    }

    /// The default as people see it: a choice's title rather than its id.
    static func defaultText(for field: InterfaceField) -> String? {
        guard let value = field.defaultValue, !value.isEmpty else { return nil }
        if case .choice(let options) = field.kind, case .choice(let id) = value {
            return options.current.first { $0.id == id }?.title ?? id
        }
        return value.text
    }

    /// What is wrong with text that does not fit a field.
    static func unreadable(_ typed: String, for field: InterfaceField) -> String {
        switch field.kind {
        case .toggle: return "answer y or n"
        case .integer(let range): return "type a whole number from \(range.lowerBound) to \(range.upperBound)"
        case .choice(let options):
            let count = options.current.count
            if count == 0 { return "no options yet: press Enter to look again" }
            return "no option '\(typed)': type a number from 1 to \(count), or a name"
        default: return "'\(typed)' does not fit \(field.label)"
        }
    }

    /// The summary a person confirms before the interface is submitted, each line indented and
    /// cut to the width, under a blank line.
    public static func confirmation(_ lines: [String], style: TerminalStyle) -> String {
        "\n" + lines.map { ("  " + $0).truncated(to: style.width) + "\n" }.joined()
    }

    /// The question after the summary: "Send? [Y/n]: ".
    public static func confirmationPrompt(for interface: ActivityInterface) -> String {
        interface.submitTitle + "? [Y/n]: "
    }

    /// A problem line: "  ! To is required".
    static func problemLine(_ problem: String, style: TerminalStyle) -> String {
        "  " + style.red("! " + problem) + "\n"
    }
}

extension InterfaceField.Kind {
    var isMultiline: Bool {
        if case .multilineText = self { return true }
        return false
    }
}
