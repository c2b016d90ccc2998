import Foundation
import ShareSheet
import ShareSheetTerminal

/// Carries out one invocation in a context.
@MainActor
struct Runner {
    let invocation: Invocation
    let context: CommandContext

    private var registry: ActivityRegistry { context.registry }

    /// Runs the invocation; returns how the command ends, or throws an error that says it.
    func run() async throws -> Termination {
        switch invocation.mode {
        case .help:
            context.standardOutput.write(
                Help.text(
                    activityNames: registry.descriptors.map(\.name),
                    subcommandUsage: Subcommands.all.flatMap { $0.usage }))
            return .success
        case .version:
            context.standardOutput.write("share \(Help.version)\n")
            return .success
        default:
            break
        }
        if invocation.items.isEmpty {
            throw ShareError(.usage, "share: nothing to share: give a file, a URL, - or --text")
        }
        if invocation.mode == .sheet, !context.standardInputIsTerminal {
            throw ShareError(
                .usage,
                "share: standard input is not a terminal, so there is no sheet to answer: "
                    + "use --activity NAME to share without one, or --list to see the names")
        }
        let excluded = try invocation.exclusions.map { try ActivityNames.type(named: $0, in: registry) }
        var chosen: ActivityType?
        switch invocation.mode {
        case .explain(let name), .activity(let name): chosen = try ActivityNames.type(named: name, in: registry)
        default: break
        }
        let resolver = ItemResolver(
            currentDirectory: context.currentDirectory, readStandardInput: context.readStandardInput)
        let items = try resolver.resolve(invocation.items)
        let controller = ActivityViewController(
            activityItems: items.map(\.value), applicationActivities: nil, registry: registry)
        controller.excludedActivityTypes = excluded.isEmpty ? nil : excluded
        controller.presetValues = presetValues()

        switch invocation.mode {
        case .list:
            return list(controller.sheet, items: items)
        case .explain:
            return explain(chosen!, sheet: controller.sheet, items: items)
        case .activity:
            return try await perform(chosen!, controller: controller)
        default:
            return try await showSheet(controller)
        }
    }

    /// `--subject`, `--to` and `--set`, as text the interface converts to each field's kind.
    func presetValues() -> InterfaceValues {
        var values: InterfaceValues = [:]
        if let subject = invocation.subject { values["subject"] = .text(subject) }
        if !invocation.recipients.isEmpty { values["to"] = .text(invocation.recipients.joined(separator: ",")) }
        for setting in invocation.settings { values[setting.field] = .text(setting.value) }
        if let app = invocation.application { values["app"] = .text(app) }
        return values
    }

    // MARK: --list

    private func list(_ sheet: ActivitySheet, items: [ResolvedItem]) -> Termination {
        let shareRow = sheet.shareRow.map(entry)
        let actionRow = sheet.actionRow.map(entry)
        let unavailable = sheet.unavailable.map { entry($0.activity, reason: reason($0.reason)) }
        if invocation.json {
            func objects(_ entries: [ListEntry]) -> JSONValue {
                .array(entries.map { entry in
                    var members: [(String, JSONValue)] = [
                        ("name", .string(entry.name)), ("type", entry.type.map(JSONValue.string) ?? .null),
                        ("title", .string(entry.title)),
                    ]
                    if let reason = entry.reason { members.append(("reason", .string(reason))) }
                    return .object(members)
                })
            }
            let object = JSONValue.object([
                ("share", objects(shareRow)), ("action", objects(actionRow)), ("unavailable", objects(unavailable)),
            ])
            context.standardOutput.write(object.encoded + "\n")
            return .success
        }
        let all = shareRow + actionRow + unavailable
        let nameWidth = all.map(\.name.count).max() ?? 0
        let titleWidth = all.map(\.title.count).max() ?? 0
        func section(_ heading: String, _ entries: [ListEntry]) -> String {
            var text = heading + "\n"
            if entries.isEmpty { return text + "  (none)\n" }
            for entry in entries {
                var line = "  " + entry.name.padding(nameWidth) + "  " + entry.title
                if let reason = entry.reason { line = line.padding(4 + nameWidth + titleWidth) + "  " + reason }
                text += line + "\n"
            }
            return text
        }
        var itemLines = "Items:\n"
        let labelWidth = items.map(\.label.count).max() ?? 0
        for (item, kind) in zip(items, sheet.itemKinds) {
            itemLines += "  " + item.label.padding(labelWidth) + "  " + kind.description + "\n"
        }
        context.standardOutput.write(
            itemLines + section("Share row:", shareRow) + section("Action row:", actionRow) + section("Unavailable:", unavailable))
        return .success
    }

    private struct ListEntry {
        var name: String
        var type: String?
        var title: String
        var reason: String?
    }

    private func entry(_ activity: Activity) -> ListEntry {
        entry(activity, reason: nil)
    }

    private func entry(_ activity: Activity, reason: String?) -> ListEntry {
        let type = activity.activityType?.rawValue
        return ListEntry(
            name: activity.commandName ?? type ?? "?", type: type, title: activity.activityTitle ?? type ?? "?",
            reason: reason)
    }

    /// The controller's reason, in the command's words where they differ.
    private func reason(_ reason: String) -> String {
        reason == "excluded by the application" ? "excluded with --exclude" : reason
    }

    // MARK: --explain

    private func explain(_ type: ActivityType, sheet: ActivitySheet, items: [ResolvedItem]) -> Termination {
        let descriptor = registry.descriptor(for: type)
        let name = ActivityNames.name(of: type, in: registry)
        var text = "\(descriptor?.title ?? name) (\(name), \(type.rawValue))\n"
        if let descriptor { text += "accepts: \(descriptor.acceptance.summary)\n" }
        text += "items:\n"
        let labelWidth = items.map(\.label.count).max() ?? 0
        let kinds = sheet.itemKinds
        let kindWidth = kinds.map(\.description.count).max() ?? 0
        for (item, kind) in zip(items, kinds) {
            var line = "  " + item.label.padding(labelWidth) + "  " + kind.description.padding(kindWidth)
            if let descriptor { line += "  " + (descriptor.acceptance.accepts(kind) ? "accepted" : "not accepted") }
            text += line + "\n"
        }
        let offered: Bool
        if sheet.shareRow.contains(where: { $0.activityType == type }) {
            text += "offered: in the share row\n"
            offered = true
        } else if sheet.actionRow.contains(where: { $0.activityType == type }) {
            text += "offered: in the action row\n"
            offered = true
        } else {
            let why = sheet.unavailable.first { $0.activity.activityType == type }.map { reason($0.reason) }
            text += "not offered: \(why ?? "it is not part of this sheet")\n"
            offered = false
        }
        let activity =
            sheet.activities.first { $0.activityType == type }
            ?? sheet.unavailable.first { $0.activity.activityType == type }?.activity
        for line in activity?.explanation(forActivityItems: items.map(\.value)) ?? [] { text += line + "\n" }
        context.standardOutput.write(text)
        return offered ? .success : Termination(status: Termination.status(of: .unavailable), message: nil)
    }

    // MARK: --activity

    private func perform(_ type: ActivityType, controller: ActivityViewController) async throws -> Termination {
        let sheet = controller.sheet
        let name = ActivityNames.name(of: type, in: registry)
        guard let activity = sheet.activities.first(where: { $0.activityType == type }) else {
            let why = sheet.unavailable.first { $0.activity.activityType == type }.map { reason($0.reason) }
            throw ShareError(.unavailable, "share: \(name) is not available: \(why ?? "it cannot act on these items")")
        }
        let presenter = ScriptedProgressPresenter(
            pick: type, progressOutput: context.standardErrorIsTerminal ? context.standardError : nil,
            progressStyle: context.style(forTerminal: context.standardErrorIsTerminal, descriptor: STDERR_FILENO))
        let outcome = await present(controller, with: presenter)
        let termination = Termination.of(outcome, title: activity.activityTitle, interfaceCancelled: false)
        report(outcome, termination: termination)
        return termination
    }

    // MARK: The sheet

    private func showSheet(_ controller: ActivityViewController) async throws -> Termination {
        if SheetScreen.pickable(controller.sheet).isEmpty {
            let reasons = Set(controller.sheet.unavailable.map { reason($0.reason) })
            let why =
                reasons.count == 1 ? ": " + reasons.first! : "; \(listCommand()) shows why"
            throw ShareError(.unavailable, "share: no activity is available for these items" + why)
        }
        // The sheet keeps standard output for results when they are JSON or go to a pipe.
        let onStandardOutput = context.standardOutputIsTerminal && !invocation.json
        let presenter = TerminalPresenter(
            input: context.lines,
            output: onStandardOutput ? context.standardOutput : context.standardError,
            style: context.style(
                forTerminal: onStandardOutput ? context.standardOutputIsTerminal : context.standardErrorIsTerminal,
                descriptor: onStandardOutput ? STDOUT_FILENO : STDERR_FILENO),
            progressOutput: context.standardErrorIsTerminal ? context.standardError : nil,
            progressStyle: context.style(forTerminal: context.standardErrorIsTerminal, descriptor: STDERR_FILENO),
            catchesInterrupts: context.catchesInterrupts)
        controller.present(with: presenter)
        let outcome = await controller.waitForCompletion()
        if presenter.wasInterrupted { await controller.waitForProvidersToStop() }
        let title = outcome.activityType.flatMap { type in
            controller.sheet.activities.first { $0.activityType == type }?.activityTitle
        }
        let termination = Termination.of(
            outcome, title: title, interfaceCancelled: presenter.interfaceWasCancelled)
        report(outcome, termination: termination)
        return termination
    }

    /// The `share --list …` command line for the same items, quoted for a shell.
    private func listCommand() -> String {
        let words = invocation.items.flatMap { item -> [String] in
            switch item {
            case .operand(let operand): return [Self.shellQuoted(operand)]
            case .text(let text): return ["--text", Self.shellQuoted(text)]
            }
        }
        return (["share", "--list"] + words).joined(separator: " ")
    }

    /// A word as a POSIX shell reads it back: bare when safe, else in single quotes.
    static func shellQuoted(_ word: String) -> String {
        let safe = word.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "@%+=:,./-_".unicodeScalars.contains(scalar))
        }
        if safe, !word.isEmpty { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Presents `controller` until it ends; Ctrl-C dismisses it and waits for its providers.
    private func present(_ controller: ActivityViewController, with presenter: any Presenter) async -> ShareOutcome {
        let interrupted = Flag()
        let watcher = context.catchesInterrupts
            ? InterruptWatcher { [weak controller] in
                interrupted.isSet = true
                controller?.dismiss()
            } : nil
        controller.present(with: presenter)
        let outcome = await controller.waitForCompletion()
        if interrupted.isSet { await controller.waitForProvidersToStop() }
        watcher?.stop()
        return outcome
    }

    /// Prints the result: a JSON object under `--json`, else what the activity returned, one
    /// per line.
    private func report(_ outcome: ShareOutcome, termination: Termination) {
        let returned = outcome.returnedItems ?? []
        if invocation.json {
            let object = Self.result(
                type: outcome.activityType, completed: outcome.completed, returned: returned, termination: termination)
            context.standardOutput.write(object.encoded + "\n")
        } else if termination.status == 0 {
            context.standardOutput.write(returned.map { Self.text(of: $0) + "\n" }.joined())
        }
    }

    /// The result object of SPEC §4; `error` is set whenever the exit status is not 0.
    static func result(type: ActivityType?, completed: Bool, returned: [Any], termination: Termination) -> JSONValue {
        let error: JSONValue =
            termination.status == 0
            ? .null
            : .object([
                ("code", .number(Int(termination.status))),
                ("message", .string(termination.message ?? "dismissed")),
            ])
        return .object([
            ("activityType", type.map { .string($0.rawValue) } ?? .null),
            ("completed", .bool(completed)),
            ("returnedItems", .array(returned.map { .string(text(of: $0)) })),
            ("error", error),
        ])
    }

    /// A returned item as text: file URLs as paths, other URLs as strings.
    static func text(of item: Any) -> String {
        switch item {
        case let url as URL: return url.isFileURL ? url.path : url.absoluteString
        case let text as String: return text
        case let dataItem as DataItem: return dataItem.filename
        default: return String(describing: item)
        }
    }
}

/// A flag set from a signal handler and read after the presentation, on the main actor.
@MainActor
private final class Flag {
    var isSet = false
}

extension String {
    /// The string padded with spaces to `width` characters.
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
