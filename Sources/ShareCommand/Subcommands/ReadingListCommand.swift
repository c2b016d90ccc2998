import Foundation
import ReadingList
import ShareSheet
import ShareSheetSystem

/// `share reading-list list|mark-read|remove|export|import`: the reading list that
/// `share --activity reading-list URL` adds to, at `$XDG_DATA_HOME/sharesheet/reading-list.sqlite`.
enum ReadingListCommand: ShareSubcommand {
    static let name = "reading-list"
    static let usage = [
        "share reading-list list [--unread] [--json]          the reading list, newest first",
        "share reading-list mark-read [--unread] URL...       mark pages as read (or unread again)",
        "share reading-list remove URL...                     take pages off the reading list",
        "share reading-list export [--format html|json] [--output FILE]",
        "                                                     as Netscape bookmark HTML (browsers import it) or JSON",
        "share reading-list import [--format html|json] FILE|-",
        "                                                     add the http(s) links of a bookmark or JSON file",
    ]

    /// The options and operands after the action word.
    private struct Arguments {
        var action: String
        var flags: Set<String> = []
        var values: [String: String] = [:]
        var operands: [String] = []
    }

    static func run(_ arguments: [String], context: CommandContext) async throws -> Termination {
        guard let action = arguments.first else {
            throw ShareError(.usage, "reading-list: give an action: list, mark-read, remove, export or import")
        }
        let readingList = ReadingList(directories: XDGDirectories(environment: context.environment))
        let rest = Array(arguments.dropFirst())
        switch action {
        case "list":
            let parsed = try parse(rest, action: action, flags: ["--json", "--unread"], valued: [])
            try noOperands(parsed)
            var items = try await background { try readingList.items() }
            if parsed.flags.contains("--unread") { items.removeAll(where: \.isRead) }
            context.standardOutput.write(
                parsed.flags.contains("--json") ? ReadingListJSON.export(items) : items.map(line).joined())
            return .success
        case "mark-read":
            let parsed = try parse(rest, action: action, flags: ["--unread"], valued: [])
            let urls = try webURLs(parsed)
            let read = !parsed.flags.contains("--unread")
            try await background { try readingList.setRead(read, for: urls) }
            return .success
        case "remove":
            let parsed = try parse(rest, action: action, flags: [], valued: [])
            let urls = try webURLs(parsed)
            try await background { try readingList.removeItems(urls) }
            return .success
        case "export":
            let parsed = try parse(rest, action: action, flags: [], valued: ["--format", "--output"])
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
            throw ShareError(
                .usage,
                "reading-list: unknown action '\(action)' (list, mark-read, remove, export, import)")
        }
    }

    private static func importFile(
        _ arguments: [String], into readingList: ReadingList, context: CommandContext
    ) async throws -> Termination {
        let parsed = try parse(arguments, action: "import", flags: [], valued: ["--format"])
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

    private static func parse(_ arguments: [String], action: String, flags: Set<String>, valued: Set<String>) throws
        -> Arguments
    {
        var parsed = Arguments(action: action)
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                parsed.operands.append(argument)
            } else if argument == "--" {
                optionsEnded = true
            } else if flags.contains(argument) {
                parsed.flags.insert(argument)
            } else if let option = valued.first(where: { argument == $0 || argument.hasPrefix($0 + "=") }) {
                if parsed.values[option] != nil {
                    throw ShareError(.usage, "reading-list \(action): \(option) can be given only once")
                }
                if argument == option {
                    guard index < arguments.count else {
                        throw ShareError(.usage, "reading-list \(action): \(option) needs a value")
                    }
                    parsed.values[option] = arguments[index]
                    index += 1
                } else {
                    parsed.values[option] = String(argument.dropFirst(option.count + 1))
                }
            } else {
                throw ShareError(
                    .usage, "reading-list \(action): unknown option '\(argument)' (see share --help)")
            }
        }
        return parsed
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
