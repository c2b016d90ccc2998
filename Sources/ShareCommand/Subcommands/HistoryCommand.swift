import Foundation
import ShareHistory
import ShareSheet
import ShareSheetSystem
import ShareSuggestions

/// `share history [list] [--json]`, `share history forget ID|--target T`, `share history clear`:
/// the shares recorded at `$XDG_DATA_HOME/sharesheet/history.sqlite` (SPEC §12), which the
/// person reads, prunes and empties here.
enum HistoryCommand: ShareSubcommand {
    static let spec = CommandSpec(
        name: "history", summary: "the shares you made: when, which activity, to whom, what kinds of items",
        about: "Every finished share is kept at $XDG_DATA_HOME/sharesheet/history.sqlite (never the items, their names, "
            + "subjects or bodies) for [history] keep-days= days; [history] enabled=false keeps none. "
            + "share history alone lists it.",
        actions: [
            ActionSpec(
                name: "list", summary: "the shares recorded, newest first",
                options: [JSONOutput.jsonOption, JSONOutput.prettyOption]),
            ActionSpec(
                name: "forget", operands: "[ID]", summary: "forget one share by its id, or every share to a target",
                options: [.value("--target", "TARGET", "forget every share to this address, device, application or printer")]),
            ActionSpec(name: "clear", summary: "forget every share"),
        ],
        examples: ["share history --json", "share history forget --target alice@example.org", "share history clear"])

    static func run(_ arguments: [String], context: CommandContext) async throws -> Termination {
        // `share history` and `share history --json` list, as `share history list` does.
        let listsByDefault = arguments.first.map { $0.hasPrefix("-") && $0 != "--help" } ?? true
        let words = listsByDefault ? ["list"] + arguments : arguments
        let action = try spec.action(named: words.first)
        let parsed = try options(Array(words.dropFirst()), for: action)
        let environment = HostEnvironment(variables: context.environment)
        let settings = try HistorySettings(configuration: try environment.loadConfiguration())
        let history = ShareHistory(directories: environment.directories)
        switch action.name {
        case "list":
            if let extra = parsed.operands.first { throw ShareError(.usage, "history list: unexpected argument '\(extra)'") }
            let format = try JSONOutput.format(parsed, command: "history list")
            // Off means nothing is written; what an earlier setting kept is still shown, and can be cleared.
            let (entries, warnings) = try await background { try history.entries() }
            for warning in warnings { context.warn(warning) }
            if let format {
                try JSONOutput.write(entries, format: format, to: context)
            } else {
                if !settings.enabled { context.standardOutput.write("History is off.\n") }
                if entries.isEmpty, settings.enabled { context.standardOutput.write("No shares recorded.\n") }
                context.standardOutput.write(entries.map(line).joined())
            }
            return .success
        case "forget":
            let target = parsed.value("--target")
            let result: (count: Int, warnings: [String])
            switch (parsed.operands.first, target, parsed.operands.count) {
            case (let id?, nil, 1):
                guard let number = Int(id), number > 0 else {
                    throw ShareError(.usage, "history forget: \(id) is not a share id (share history shows them)")
                }
                result = try await background { try history.forget(id: number) }
                if result.count == 0 { throw ShareError(.noInput, "history forget: no share \(number) in the history") }
            case (nil, let target?, 0):
                result = try await background { try history.forget(target: target) }
            default:
                throw ShareError(.usage, "history forget: give one share id, or --target TARGET")
            }
            for warning in result.warnings { context.warn(warning) }
            // The suggestions' snapshots name whom the history held: they go with it.
            SuggestionSnapshot.removeAll(in: environment.directories)
            context.standardOutput.write("forgot \(sharesWord(result.count))\n")
            return .success
        case "clear":
            if let extra = parsed.operands.first { throw ShareError(.usage, "history clear: unexpected argument '\(extra)'") }
            let result = try await background { try history.clear() }
            for warning in result.warnings { context.warn(warning) }
            // The suggestions' snapshots name whom the history held: they go with it.
            SuggestionSnapshot.removeAll(in: environment.directories)
            context.standardOutput.write("forgot \(sharesWord(result.count))\n")
            return .success
        default:
            preconditionFailure("an action of the spec without a case: \(action.name)")
        }
    }

    /// "1 share", "3 shares".
    private static func sharesWord(_ count: Int) -> String { count == 1 ? "1 share" : "\(count) shares" }

    /// One line of `list`: id, time, activity, targets, items, disposition.
    /// `12  2026-12-05 15:58  mail  to alice@example.org  2 images  sent`
    private static func line(_ entry: HistoryEntry) -> String {
        var parts = ["\(entry.id)", dateText(entry.time), entry.activity]
        if !entry.targets.isEmpty {
            parts.append("to " + entry.targets.map { target in target.name.map { "\($0) (\(target.value))" } ?? target.value }.joined(separator: ", "))
        }
        parts.append(entry.items.map { "\($0.count) \($0.count == 1 ? $0.kind : plural($0.kind))" }.joined(separator: ", "))
        parts.append(entry.disposition)
        return parts.joined(separator: "  ") + "\n"
    }

    private static func plural(_ kind: String) -> String { kind == "text" ? "texts" : kind + "s" }

    /// `2026-11-30 15:58` in the local time zone.
    static func dateText(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970)
        var parts = tm()
        localtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) \(two(parts.tm_hour)):\(two(parts.tm_min))"
    }

    /// Runs blocking store work off the main actor.
    private static func background<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws
        -> Result
    {
        try await Task.detached { try work() }.value
    }
}
