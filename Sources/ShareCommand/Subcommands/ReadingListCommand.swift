import Foundation
import ReadingList
import ShareSheet
import ShareSheetSystem

/// `share reading-list list|mark-read|remove|export|import`: the reading list that
/// `share --activity reading-list URL` adds to, at `$XDG_DATA_HOME/sharesheet/reading-list.sqlite`.
enum ReadingListCommand: ShareSubcommand {
    static let spec = CommandSpec(
        name: "reading-list", summary: "the reading list Add to Reading List adds to",
        about: "The list is a SQLite store at $XDG_DATA_HOME/sharesheet/reading-list.sqlite; sqlite3 reads it.",
        actions: [
            ActionSpec(
                name: "list", summary: "the reading list, newest first",
                options: [.flag("--unread", "only the pages not read yet"), JSONOutput.jsonOption, JSONOutput.prettyOption]),
            ActionSpec(
                name: "mark-read", operands: "URL...", summary: "mark pages as read (or unread again)",
                options: [.flag("--unread", "mark them unread")]),
            ActionSpec(name: "remove", operands: "URL...", summary: "take pages off the reading list"),
            ActionSpec(
                name: "export", summary: "as Netscape bookmark HTML (browsers import it) or JSON",
                options: [format, .value("--output", "FILE", "write to FILE (atomically) instead of standard output", kind: .file)]),
            ActionSpec(
                name: "import", operands: "FILE|-", operandKind: .file,
                summary: "add the http(s) links of a bookmark or JSON file", options: [format]),
        ],
        examples: ["share reading-list export --format json --output list.json", "share reading-list list --unread"])

    private static let format = OptionSpec.value(
        "--format", "FORMAT", "html or json (import: read from the file)", kind: .choices(["html", "json"]))

    /// The options and operands after the action word.
    private struct Arguments {
        var action: String
        var flags: Set<String> = []
        var values: [String: String] = [:]
        var operands: [String] = []
    }

    static func run(_ arguments: [String], context: CommandContext) async throws -> Termination {
        let action = try spec.action(named: arguments.first).name
        let readingList = ReadingList(directories: XDGDirectories(environment: context.environment))
        let rest = Array(arguments.dropFirst())
        switch action {
        case "list":
            let parsed = try parse(rest, action: action)
            try noOperands(parsed)
            let format = try JSONOutput.format(
                json: parsed.flags.contains("--json"), pretty: parsed.flags.contains("--pretty"), command: "reading-list list")
            var items = try await background { try readingList.items() }
            if parsed.flags.contains("--unread") { items.removeAll(where: \.isRead) }
            if let format {
                try JSONOutput.write(items.map(ListedPage.init), format: format, to: context)
            } else {
                context.standardOutput.write(items.map(line).joined())
            }
            return .success
        case "mark-read":
            let parsed = try parse(rest, action: action)
            let urls = try webURLs(parsed)
            let read = !parsed.flags.contains("--unread")
            try await background { try readingList.setRead(read, for: urls) }
            return .success
        case "remove":
            let parsed = try parse(rest, action: action)
            let urls = try webURLs(parsed)
            try await background { try readingList.removeItems(urls) }
            return .success
        case "export":
            let parsed = try parse(rest, action: action)
            try noOperands(parsed)
            let format = try self.format(parsed) ?? .html
            let items = try await background { try readingList.items() }
            let text = ReadingListFile.export(items, as: format)
            if let output = parsed.values["--output"], output != "-" {
                let url = URL(fileURLWithPath: absolutePath(output, in: context.currentDirectory))
                try AtomicFile.write(Data(text.utf8), to: url)
            } else {
                context.standardOutput.write(text)
            }
            return .success
        case "import":
            return try await importFile(rest, into: readingList, context: context)
        default:
            preconditionFailure("an action of the spec without a case: \(action)")
        }
    }

    private static func importFile(
        _ arguments: [String], into readingList: ReadingList, context: CommandContext
    ) async throws -> Termination {
        let parsed = try parse(arguments, action: "import")
        guard parsed.operands.count == 1, let operand = parsed.operands.first else {
            throw ShareError(.usage, "reading-list import: give one file to import, or - for standard input")
        }
        let data: Data
        do {
            data =
                operand == "-"
                ? try context.readStandardInput()
                : try Data(contentsOf: URL(fileURLWithPath: absolutePath(operand, in: context.currentDirectory)))
        } catch {
            let reason = (error as? CocoaError)?.code == .fileReadNoSuchFile ? "no such file" : "cannot read it"
            throw ShareError(.noInput, "reading-list import: \(operand): \(reason)")
        }
        let contents = try ReadingListFile.read(data, name: operand, format: try format(parsed))
        for refused in contents.refused {
            context.warn("reading-list import: skipped \(refused.address): \(refused.reason)")
        }
        if contents.items.isEmpty, !contents.refused.isEmpty {
            throw ShareError(.badData, "reading-list import: \(operand): no http or https link to import")
        }
        let items = contents.items
        let summary = try await background { try readingList.importItems(items) }
        var line = "imported \(summary.added + summary.updated) (\(summary.added) new, \(summary.updated) updated)"
        if !contents.refused.isEmpty { line += ", skipped \(contents.refused.count)" }
        context.standardOutput.write(line + "\n")
        return .success
    }

    /// One page as `list --json` prints it: the keys of `export --format json`, each always
    /// present (null when the page has no title or preview).
    private struct ListedPage: Encodable {
        var url: String
        var title: String?
        var previewText: String?
        var dateAdded: Date
        var read: Bool

        init(_ item: ReadingListItem) {
            url = item.url.absoluteString
            title = item.title
            previewText = item.previewText
            dateAdded = item.dateAdded
            read = item.isRead
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(url, forKey: .url)
            try container.encode(title, forKey: .title)
            try container.encode(previewText, forKey: .previewText)
            try container.encode(dateAdded, forKey: .dateAdded)
            try container.encode(read, forKey: .read)
        }

        private enum CodingKeys: String, CodingKey { case url, title, previewText, dateAdded, read }
    }

    /// One line of `list`: `[ ]` unread or `[x]` read, when it was added, the URL, the title.
    private static func line(_ item: ReadingListItem) -> String {
        var line = (item.isRead ? "[x] " : "[ ] ") + dateText(item.dateAdded) + "  " + item.url.absoluteString
        if let title = item.title { line += "  " + title.split(whereSeparator: \.isNewline).joined(separator: " ") }
        return line + "\n"
    }

    /// `2026-11-30 15:58` in the local time zone.
    private static func dateText(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970)
        var parts = tm()
        localtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) \(two(parts.tm_hour)):\(two(parts.tm_min))"
    }

    // MARK: Arguments

    /// The arguments after the action word, read against the action's declared options.
    private static func parse(_ arguments: [String], action: String) throws -> Arguments {
        let parsed = try options(arguments, for: try spec.action(named: action))
        var values: [String: String] = [:]
        for option in ["--format", "--output"] { values[option] = parsed.value(option) }
        return Arguments(
            action: action, flags: Set(["--json", "--pretty", "--unread"].filter(parsed.flag)), values: values.compactMapValues { $0 },
            operands: parsed.operands)
    }

    private static func noOperands(_ parsed: Arguments) throws {
        if let extra = parsed.operands.first {
            throw ShareError(.usage, "reading-list \(parsed.action): unexpected argument '\(extra)'")
        }
    }

    private static func format(_ parsed: Arguments) throws -> ReadingListFile.Format? {
        guard let name = parsed.values["--format"] else { return nil }
        guard let format = ReadingListFile.Format(rawValue: name.lowercased()) else {
            throw ShareError(.usage, "reading-list \(parsed.action): --format takes html or json, not '\(name)'")
        }
        return format
    }

    /// The operands as reading-list pages.
    private static func webURLs(_ parsed: Arguments) throws -> [URL] {
        guard !parsed.operands.isEmpty else {
            throw ShareError(.usage, "reading-list \(parsed.action): give the URL of at least one page")
        }
        return try parsed.operands.map { operand in
            guard let url = URL(string: operand), url.scheme != nil else {
                throw ShareError(.badData, "reading-list \(parsed.action): \(operand): not a URL")
            }
            return try ReadingList.normalized(url)
        }
    }

    private static func absolutePath(_ path: String, in folder: String) -> String {
        path.hasPrefix("/") ? path : (folder as NSString).appendingPathComponent(path)
    }

    /// Runs blocking store work off the main actor.
    private static func background<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws
        -> Result
    {
        try await Task.detached { try work() }.value
    }
}
