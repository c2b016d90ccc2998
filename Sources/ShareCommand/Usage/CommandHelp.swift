/// `share SUBCOMMAND --help`, and the subcommand lines of `share --help`, made from the
/// subcommand's `CommandSpec`.
enum CommandHelp {
    /// The usage forms: one per action, or the command's own.
    static func forms(of spec: CommandSpec) -> [(form: String, summary: String)] {
        if spec.actions.isEmpty {
            let options = spec.options.map { "[\($0.usage)]" }
            return [(words(["share", spec.name] + options + [spec.operands]), spec.summary)]
        }
        return spec.actions.map { action in
            (words(["share", spec.name, action.name] + action.options.map { "[\($0.usage)]" } + [action.operands]), action.summary)
        }
    }

    /// The lines `share --help` shows for a subcommand, in its "command   description" layout;
    /// a form too long for its column says `[options]` (the subcommand's help lists them).
    static func usageLines(of spec: CommandSpec) -> [String] {
        forms(of: spec).map { form in
            var shown = form.form
            if shown.count > 52, let first = shown.range(of: " ["), let last = shown.range(of: "]", options: .backwards) {
                shown.replaceSubrange(first.lowerBound..<last.upperBound, with: " [options]")
            }
            return "\(shown)   \(form.summary)"
        }
    }

    /// The whole `--help` text of a subcommand.
    static func text(of spec: CommandSpec) -> String {
        var text = ""
        for (index, form) in forms(of: spec).enumerated() {
            text += hanging((index == 0 ? "usage: " : "       ") + form.form, under: "share \(spec.name) ")
        }
        text += "\n" + wrap(spec.summary.prefix(1).uppercased() + spec.summary.dropFirst() + ".", indent: 0) + "\n"
        if !spec.about.isEmpty { text += "\n" + wrap(spec.about, indent: 0) + "\n" }
        if !spec.actions.isEmpty {
            text += "\nActions:\n" + spec.actions.map { row(words([$0.name, $0.operands]), $0.summary) }.joined()
        }
        text += "\nOptions:\n" + (spec.allOptions + [.help]).map { option in
            let owners = spec.actions.filter { $0.options.contains(option) }.map(\.name)
            let scope = owners.isEmpty || owners.count == spec.actions.count ? "" : " (\(owners.joined(separator: ", ")))"
            return row((option.short.map { "\($0), " } ?? "") + option.usage, option.summary + scope)
        }.joined()
        if !spec.examples.isEmpty {
            text += "\nExamples:\n" + spec.examples.map { "  " + $0 + "\n" }.joined()
        }
        return text
    }

    /// "  NAME   description", the description from column 24 or under the name when long,
    /// wrapped at 80 columns.
    static func row(_ name: String, _ description: String) -> String {
        let column = 24
        let head = "  " + name
        if head.count <= column - 2 {
            let lines = wrap(description, indent: column, width: 80).split(separator: "\n", omittingEmptySubsequences: false)
            var first = String(lines[0])
            first.replaceSubrange(first.startIndex..<first.index(first.startIndex, offsetBy: head.count), with: head)
            return ([first] + lines.dropFirst().map(String.init)).joined(separator: "\n") + "\n"
        }
        return head + "\n" + wrap(description, indent: column, width: 80) + "\n"
    }

    /// `text` in lines of at most `width` columns, each indented by `indent` spaces.
    static func wrap(_ text: String, indent: Int, width: Int = 80) -> String {
        let margin = String(repeating: " ", count: indent)
        var lines: [String] = []
        var line = margin
        for word in text.split(separator: " ") {
            if line.count > indent, line.count + 1 + word.count > width {
                lines.append(line)
                line = margin
            }
            line += (line.count > indent ? " " : "") + word
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// A usage line wrapped at 80 columns, its continuation lines under the first word after
    /// `prefix` (`share receive `).
    private static func hanging(_ line: String, under prefix: String) -> String {
        guard line.count > 80, let start = line.range(of: prefix) else { return line + "\n" }
        let indent = line.distance(from: line.startIndex, to: start.upperBound)
        let head = String(line[..<start.upperBound])
        // An option and its value ("[--folder DIR]") stay on one line.
        var depth = 0
        let rest = String(line[start.upperBound...].map { character -> Character in
            if character == "[" { depth += 1 } else if character == "]" { depth -= 1 }
            return character == " " && depth > 0 ? "\u{A0}" : character
        })
        let wrapped = wrap(rest, indent: indent).replacingOccurrences(of: "\u{A0}", with: " ")
        return head + wrapped.dropFirst(indent) + "\n"
    }

    private static func words(_ parts: [String]) -> String {
        parts.filter { !$0.isEmpty }.joined(separator: " ")
    }
}
