import Foundation
import ShareHistory
import ShareSheet
import ShareSheetGTK
import ShareSheetTerminal
import ShareServiceProtocol
import ShareSuggestions
import Sharing

/// Carries out one invocation in a context.
@MainActor
struct Runner {
    let invocation: Invocation
    /// Standard input becomes the terminal (`attachTerminalIfSpent`) once it has been read.
    private(set) var context: CommandContext

    private var registry: ActivityRegistry { context.registry }
    /// The share layer, over the context's registry.
    let host: ShareHost

    init(invocation: Invocation, context: CommandContext) {
        self.invocation = invocation
        self.context = context
        host = ShareHost(registry: context.registry)
        host.settingName = { "--set \($0)" }
        host.suggestionSourceMaker = { [environment = context.registry.environment, warn = context.warn] in
            SuggestionSourceMaking.source(environment: environment, warn: { warn($0) })
        }
    }

    /// Runs the invocation; returns how the command ends, or throws an error that says it.
    mutating func run() async throws -> Termination {
        switch invocation.mode {
        case .help:
            context.standardOutput.write(
                Help.text(
                    activityNames: registry.descriptors.map(\.name),
                    subcommandUsage: Subcommands.specs.flatMap(CommandHelp.usageLines)))
            return .success
        case .version:
            context.standardOutput.write("share \(Help.version)\n")
            return .success
        case .service:
            return try await serve()
        default:
            break
        }
        // --verbose: the backends say their steps through the host environment they are given.
        registry.environment.steps = VerboseLog.make(invocation.verbose, context: context)
        if invocation.viaService { return try await shareThroughService() }
        if invocation.items.isEmpty {
            throw ShareError(.usage, "nothing to share: give a file, a URL, - or --text")
        }
        // A wrong --only is said before any item is read.
        let choices = try invocation.choices(forItemCount: invocation.items.count)
        if invocation.mode == .sheet, invocation.sheetStyle == .window, !context.canOpenWindows {
            throw ShareError(.unavailable, "--gui needs the share program's main loop; this caller can only show the terminal sheet")
        }
        // The sheet reads the terminal the command was started from when standard input is
        // an item (`echo hi | share -`); with no terminal at all there is no sheet to answer.
        let readsTerminalAfterInput =
            invocation.items.contains(.standardInput) && context.controllingTerminal?.isAvailable() == true
        if invocation.mode == .sheet, !usesWindow, !context.standardInputIsTerminal, !readsTerminalAfterInput {
            // A missing or unreadable file is the first thing to fix, so it is said first;
            // standard input is not read for a sheet that cannot be shown.
            if !invocation.items.contains(.standardInput) { _ = try await resolveItems() }
            throw Self.noTerminal
        }
        var chosen: ActivityType?
        switch invocation.mode {
        case .explain(let name), .activity(let name): chosen = try host.names.type(named: name)
        default: break
        }
        if invocation.mode.printsResult {
            for warning in try host.configurationWarnings() { context.warn(warning) }
            // A [history] value that makes no sense is said before the share goes, not after.
            _ = try HistorySettings(configuration: try host.environment.loadConfiguration())
        }
        let items = try await resolveItems()
        // Standard input too large for memory is a private file, gone when the share ends.
        defer { items.removeSpooledFiles() }
        if readsTerminalAfterInput, invocation.mode == .sheet, !usesWindow, !context.standardInputIsTerminal {
            attachTerminal()
        }
        // An activity named on the command line shows no sheet: nothing is suggested for it.
        var controller = try host.controller(
            for: items, presets: invocation.presets, excluding: invocation.exclusions, rejectingUnknownSettings: true,
            suggesting: chosen == nil, choices: choices)
        var presets = invocation.presets
        if case .suggestion(let id) = invocation.mode {
            // The suggestion's presets over the command line's, on a sheet that has them.
            let suggestion = try suggestion(id, on: controller)
            presets = presets.applying(suggestion)
            chosen = suggestion.activityType
            controller = try host.controller(
                for: items, presets: presets, excluding: invocation.exclusions, rejectingUnknownSettings: true, suggesting: false,
                choices: choices)
        }
        if let steps = registry.environment.steps {
            for (item, kind) in zip(items, controller.sheet.itemKinds) { steps.say(VerboseLog.describe(item, kind: kind)) }
        }

        switch invocation.mode {
        case .list:
            return try list(controller.sheet, items: items, leftOut: controller.itemChoices.leftOut)
        case .explain:
            return explain(chosen!, sheet: controller.sheet, items: items)
        case .activity, .suggestion:
            // Items the activity does not take are left out by the sheet: said, not silent (when
            // the activity runs at all; `perform` says why when it does not).
            if host.unavailableReason(chosen!, on: controller.sheet) == nil {
                saySkipped(by: chosen!, on: controller.sheet, labels: items.map(\.label))
            }
            return try await perform(chosen!, controller: controller, remake: remake(items, presets: presets))
        default:
            return try await showSheet(controller, labels: items.map(\.label), remake: remake(items))
        }
    }

    /// A controller for `items` with the command's presets and `asked` on top: what a share
    /// session presents when it runs the activity again with a person's answer.
    private func remake(
        _ items: [ResolvedItem], presets given: SharePresets? = nil
    ) -> ([(key: String, value: String)]) throws -> ActivityViewController {
        let host = self.host
        let presets = given ?? invocation.presets
        let exclusions = invocation.exclusions
        return { asked in
            var presets = presets
            presets.settings += asked
            return try host.controller(for: items, presets: presets, excluding: exclusions, rejectingUnknownSettings: true)
        }
    }

    // MARK: Items

    /// Makes the controlling terminal standard input, now that standard input has been read
    /// as an item, so the sheet and the activity's questions read the person's keys.
    private mutating func attachTerminal() {
        guard let terminal = context.controllingTerminal, terminal.attachAsStandardInput() else { return }
        context.standardInputIsTerminal = true
    }

    /// The resolver for this command: its folder, its standard input and `[limits] stdin=`.
    private func resolver() throws -> ItemResolver {
        ItemResolver(
            currentDirectory: context.currentDirectory, standardInput: context.standardInputDescriptor,
            standardInputLimit: try host.standardInputLimit(), temporaryDirectory: temporaryDirectory,
            labels: context.argumentLabels)
    }

    /// `TMPDIR` of the command's environment, when set.
    private var temporaryDirectory: URL? {
        guard let folder = context.environment["TMPDIR"], !folder.isEmpty else { return nil }
        return URL(fileURLWithPath: folder, isDirectory: true)
    }

    /// The items, read and checked; Ctrl-C while standard input is read stops it and leaves
    /// nothing behind.
    private func resolveItems() async throws -> [ResolvedItem] {
        let resolver = try resolver()
        let inputs = invocation.items
        return try await interruptible(inputs.contains(.standardInput)) { try await resolver.resolve(inputs) }
    }

    /// Runs `work` in a task of its own that Ctrl-C cancels when `watching` (and the context
    /// catches interrupts), instead of ending the process with a half-written file.
    private func interruptible<Value: Sendable>(
        _ watching: Bool, _ work: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let task = Task { try await work() }
        let watcher = watching && context.catchesInterrupts ? InterruptWatcher { task.cancel() } : nil
        defer { watcher?.stop() }
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }

    // MARK: The share service

    /// `share --service`: the service on the session bus, until it has been idle a while.
    private func serve() async throws -> Termination {
        guard context.canOpenWindows else {
            throw ShareError(.unavailable, "--service needs the share program's main loop")
        }
        return await serveOnTheBus()
    }

    /// `share --via-service ITEM…`: the same share, carried out by the share service.
    private func shareThroughService() async throws -> Termination {
        try ServiceShareRequest.check(invocation)
        let resolver = try resolver()
        // Read first (Ctrl-C stops it): text goes as text, the rest as a descriptor.
        let standardInput = try await interruptible(invocation.items.contains(.standardInput)) {
            invocation.items.contains(.standardInput) ? try await resolver.resolve(.standardInput) : nil
        }
        // The request holds its own descriptor of a spooled file: its name can go at once.
        defer { standardInput?.spooledFile?.remove() }
        var suggestion: String?
        if case .suggestion(let id) = invocation.mode { suggestion = id }
        let request = try ServiceShareRequest(
            invocation: invocation, resolver: resolver, standardInput: standardInput,
            temporaryFolder: context.environment["TMPDIR"] ?? "/tmp", suggestion: suggestion)
        if invocation.mode.lists {
            let activities = try await ServiceClient.activities(for: request, environment: context.environment)
            // The items are described here, as --list does; what is offered is the service's answer.
            let items = try await resolveItems(standardInput: standardInput)
            if case .explain(let name) = invocation.mode {
                return try explain(name, activities: activities, items: items)
            }
            var listing = SheetListing(wire: activities, items: items, reason: reason)
            // Whom the service's sheet would suggest, as it would show them (SPEC §12).
            listing.suggestions = try await ServiceClient.suggestions(for: request, environment: context.environment).map { wire in
                SheetListing.Suggestion(ActivitySuggestion(wire), activity: wire.activity)
            }
            return try list(listing)
        }
        let result = try await ServiceClient.share(
            request, environment: context.environment, insideMainLoop: context.canOpenWindows,
            catchesInterrupts: context.catchesInterrupts)
        return report(result)
    }

    /// The items as `--list` describes them, standard input already read.
    private func resolveItems(standardInput: ResolvedItem?) async throws -> [ResolvedItem] {
        let resolver = try resolver()
        var items: [ResolvedItem] = []
        for input in invocation.items {
            if input == .standardInput, let standardInput {
                items.append(standardInput)
            } else {
                items.append(try await resolver.resolve(input))
            }
        }
        return items
    }

    /// `--via-service --explain NAME`: what the service's sheet says of the activity, for these items.
    private func explain(_ name: String, activities: [WireActivity], items: [ResolvedItem]) throws -> Termination {
        // An unknown name is the same mistake, said the same way, as without --via-service.
        let type = try host.names.type(named: name)
        guard let found = activities.first(where: { $0.activityType == type.rawValue }) else {
            throw ShareError(.unavailable, "\(name) is not in the share service's sheet")
        }
        var text = "\(found.title) (\(found.activity), \(found.activityType))\n"
        text += "items:\n"
        let labelWidth = items.map(\.label.count).max() ?? 0
        for item in items {
            text += "  " + item.label.padding(labelWidth) + "  " + ItemKind.of(item.value).description + "\n"
        }
        if let why = found.unavailability, !found.available {
            text += "not offered: \(reason(why))\n"
        } else {
            text += "offered: in the \(found.category) row\n"
        }
        context.standardOutput.write(text)
        return found.available ? .success : Termination(status: Termination.status(of: .unavailable), message: nil)
    }

    // MARK: --list

    private func list(_ sheet: ActivitySheet, items: [ResolvedItem], leftOut: Set<Int>) throws -> Termination {
        // The items that go: what is offered is offered for them.
        let sent = zip(items, sheet.itemKinds).enumerated().filter { !leftOut.contains($0.offset) }.map(\.element)
        return try list(
            SheetListing(
                items: sent.map { SheetListing.Item(label: $0.label, kind: $1) },
                share: sheet.shareRow.map(entry), action: sheet.actionRow.map(entry),
                unavailable: sheet.unavailable.map { entry($0.activity, reason: reason(of: $0, on: sheet)) },
                suggestions: sheet.suggestions.map { SheetListing.Suggestion($0, activity: host.names.name(of: $0.activityType)) }))
    }

    /// Prints a listing, as JSON or for people.
    private func list(_ listing: SheetListing) throws -> Termination {
        if let format = try JSONOutput.format(json: invocation.json, pretty: invocation.pretty, command: "") {
            try JSONOutput.write(listing, format: format, to: context)
            return .success
        }
        let all = listing.share + listing.action + listing.unavailable
        let nameWidth = all.map(\.name.count).max() ?? 0
        let titleWidth = all.map(\.title.count).max() ?? 0
        func section(_ heading: String, _ entries: [SheetListing.Entry]) -> String {
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
        let labelWidth = listing.items.map(\.label.count).max() ?? 0
        for item in listing.items {
            itemLines += "  " + item.label.padding(labelWidth) + "  " + item.description + "\n"
        }
        context.standardOutput.write(
            itemLines + suggestionLines(listing.suggestions) + section("Share row:", listing.share) + section("Action row:", listing.action)
                + section("Unavailable:", listing.unavailable))
        return .success
    }

    /// "Suggestions:" and one line each: the id `--suggestion` takes, "Mail to Ana Lima", and
    /// the address when the phrase does not say it. Nothing with none (no history, no
    /// contacts, or `[sheet] suggestions=false`), as the sheet shows none.
    private func suggestionLines(_ suggestions: [SheetListing.Suggestion]) -> String {
        if suggestions.isEmpty { return "" }
        var text = "Suggestions:\n"
        let idWidth = suggestions.map(\.id.count).max() ?? 0
        for suggestion in suggestions {
            let words = host.names.words(
                for: ActivityType(suggestion.activityType), title: suggestion.title, presets: suggestion.presets ?? [:])
            let detail = words.detail.map { "  " + $0 } ?? ""
            text += "  \(suggestion.id.padding(idWidth))  \(words.phrase)\(detail)\n"
        }
        return text
    }

    // MARK: --suggestion

    /// The suggestion `id` of `controller`'s sheet.
    /// - Throws: a usage error naming the id and the command that lists the suggestions.
    private func suggestion(_ id: String, on controller: ActivityViewController) throws -> ActivitySuggestion {
        do {
            return try host.suggestion(id, on: controller)
        } catch let error as ShareError where error.kind == .usage {
            throw ShareError(
                .usage, "--suggestion \(id): not suggested for these items; `\(listCommand(["share", "suggestions"]))` lists those that are",
                field: error.field ?? "suggestion")
        }
    }

    private func entry(_ activity: Activity) -> SheetListing.Entry {
        entry(activity, reason: nil)
    }

    private func entry(_ activity: Activity, reason: String?) -> SheetListing.Entry {
        let name = host.names.entry(for: activity)
        return SheetListing.Entry(
            name: name.name, type: activity.activityType?.rawValue, title: name.title, reason: reason)
    }

    /// The controller's reason, in the command's words where they differ.
    private func reason(_ reason: String) -> String {
        reason == "excluded by the application" ? "excluded with --exclude" : reason
    }

    /// Why an activity is not offered, with the command's advice when its facts name a fix.
    private func reason(_ why: Unavailability) -> String {
        CommandWords.reason(Unavailability(reason(why.reason), setting: why.setting, fix: why.fix, path: why.path))
    }

    /// The reason of an unavailable entry of `sheet`, with its facts, in the command's words.
    private func reason(of entry: (activity: Activity, reason: String), on sheet: ActivitySheet) -> String {
        reason(sheet.unavailableFixes[ObjectIdentifier(entry.activity)] ?? Unavailability(entry.reason))
    }

    // MARK: --explain

    private func explain(_ type: ActivityType, sheet: ActivitySheet, items: [ResolvedItem]) -> Termination {
        let descriptor = registry.descriptor(for: type)
        let name = host.names.name(of: type)
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
        let why = host.unavailability(type, on: sheet)
        if let why {
            text += "not offered: \(reason(why))\n"
        } else {
            let row = sheet.shareRow.contains { $0.activityType == type } ? "share" : "action"
            text += "offered: in the \(row) row\n"
        }
        let activity = host.activity(type, on: sheet)
        // Where the work would go with this configuration (the outbox, a PDF…), said before it goes.
        if why == nil, let route = activity?.route {
            text += ActivityHelp.routeLines(route, configurationFile: host.environment.configurationFileDisplayPath, label: "route")
        }
        for line in activity?.explanation(forActivityItems: items.map(\.value)) ?? [] { text += CommandWords.line(line) + "\n" }
        context.standardOutput.write(text)
        return why == nil ? .success : Termination(status: Termination.status(of: .unavailable), message: nil)
    }

    // MARK: --activity

    /// Runs `type` without a sheet, in a share session: on a terminal what the command line
    /// left out is asked; without one nothing is, but a need after the pick (a receiver's PIN)
    /// is asked in a window when there is a display.
    /// - Parameter remake: a controller for the same items with more settings, for a share
    ///   tried again with what a person was asked for after the activity ran.
    private func perform(
        _ type: ActivityType, controller first: ActivityViewController,
        remake: @escaping ([(key: String, value: String)]) throws -> ActivityViewController
    ) async throws -> Termination {
        if let why = host.unavailability(type, on: first.sheet) {
            throw ShareError(
                .unavailable, "\(host.names.name(of: type)) is not available: \(reason(why.reason))", setting: why.setting,
                fix: why.fix, path: why.path)
        }
        let given = if case .suggestion(let id) = invocation.mode { "--suggestion \(id)" } else { "--activity" }
        registry.environment.steps?.say("activity: \(host.names.name(of: type)) (\(type.rawValue)), given with \(given)")
        let session = ShareSession(host: host, first: first, remake: remake)
        let frontEnd: CommandFrontEnd
        if context.standardInputIsTerminal {
            // A person is there: what the activity still needs (which application, say) is
            // asked (on standard error under --json) instead of ending with "set it with --set".
            // Ctrl-C is caught by the presenter, which lets a running activity keep its work.
            frontEnd = CommandFrontEnd(
                presenter: { terminalPresenter(pick: $0 ?? type) }, ask: { askOnTerminal($0) })
        } else {
            let progressOutput = context.standardErrorIsTerminal && !invocation.quiet ? context.standardError : nil
            let progressStyle = context.style(forTerminal: context.standardErrorIsTerminal, descriptor: STDERR_FILENO)
            frontEnd = CommandFrontEnd(
                presenter: { ScriptedProgressPresenter(pick: $0 ?? type, progressOutput: progressOutput, progressStyle: progressStyle) },
                ask: { need in await askInWindow(need) })
        }
        let ending = try await run(session, with: frontEnd, picking: type, watchingInterrupts: !context.standardInputIsTerminal)
        sayKept(ending.kept)
        return reportRecorded(session.result(of: ending, interfaceCancelled: frontEnd.interfaceWasCancelled), ending)
    }

    /// Runs a session; with `watchingInterrupts`, Ctrl-C cancels it the way every front end
    /// cancels (finished work kept), and a second Ctrl-C ends the process at once.
    private func run(
        _ session: ShareSession, with frontEnd: any ShareFrontEnd, picking type: ActivityType?, watchingInterrupts: Bool
    ) async throws -> ShareSession.Ending {
        var watcher: InterruptWatcher?
        if watchingInterrupts, context.catchesInterrupts {
            let stopping = WatcherBox()
            watcher = InterruptWatcher { [weak session] in
                session?.cancel()
                stopping.watcher?.stop()
            }
            stopping.watcher = watcher
        }
        defer { watcher?.stop() }
        return try await session.run(with: frontEnd, picking: type)
    }

    /// Asks on the terminal for what the activity found missing while it ran (a receiver's
    /// PIN), typed without echo when it is secret. Nil when nothing is typed (the share then
    /// ends with the failure).
    private func askOnTerminal(_ need: ShareNeed) -> String? {
        context.standardError.write("\(need.reason)\n")
        defer { context.standardError.write("\n") }
        let typed = try? TerminalLine.read(descriptor: context.standardInputDescriptor, echo: !need.isSecret) {
            context.standardError.write("\(need.label) (Enter to give up): ")
        }
        guard let typed, !typed.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        return typed.trimmingCharacters(in: .whitespaces)
    }

    /// Asks in a window, on a display without a terminal (`share --activity airdrop` started
    /// from a desktop); nil when there is no display or the person gives up.
    private func askInWindow(_ need: ShareNeed) async -> String? {
        guard context.canOpenWindows, invocation.sheetStyle != .terminal, WindowPresenter.hasDisplay(context.environment)
        else { return nil }
        return await WindowPresenter(names: host.names, title: need.activityTitle).ask(need)
    }

    /// After a cancel: what the activity kept and where ("the message is kept in the outbox at
    /// …; send it with `share outbox flush`", "kept 1 of 2 files at Desk Laptop").
    private func sayKept(_ kept: KeptWork?) {
        guard let kept else { return }
        switch kept.resume {
        case .outbox:
            context.warn("interrupted: \(kept.what) is kept at \(kept.location); finish it with `share outbox flush`")
        case nil:
            context.warn("interrupted: kept \(kept.what) at \(kept.location)")
        }
    }

    // MARK: The sheet

    /// Why there is no terminal sheet without a terminal on standard input.
    private static let noTerminal = ShareError(
        .usage,
        "standard input is not a terminal, so there is no sheet to answer: "
            + "use --activity NAME to share without one, or --list to see the names")

    /// True when the sheet is a window: `--gui`, or a display without `--terminal`.
    private var usesWindow: Bool {
        guard context.canOpenWindows else { return false }
        switch invocation.sheetStyle {
        case .window: return true
        case .terminal: return false
        case .automatic: return WindowPresenter.hasDisplay(context.environment)
        }
    }

    /// - Parameter labels: the items' labels, to say which items the picked activity skipped.
    private func showSheet(
        _ controller: ActivityViewController, labels: [String],
        remake: @escaping ([(key: String, value: String)]) throws -> ActivityViewController
    ) async throws -> Termination {
        if SheetScreen.pickable(controller.sheet).isEmpty {
            let reasons = Set(controller.sheet.unavailable.map { reason(of: $0, on: controller.sheet) })
            let why =
                reasons.count == 1 ? ": " + reasons.first! : "; \(listCommand()) shows why"
            throw ShareError(.unavailable, "no activity is available for these items" + why)
        }
        if usesWindow {
            do {
                try WindowPresenter.connectToDisplay()
                return try await showWindow(controller, labels: labels, remake: remake)
            } catch let failure as ShareError where failure.kind == .unavailable && invocation.sheetStyle != .automatic {
                throw ShareError(failure.kind, failure.message + " (--terminal shows the sheet in this terminal)")
            } catch let failure as ShareError where failure.kind == .unavailable && invocation.sheetStyle == .automatic
                && context.standardInputIsTerminal
            {
                // A display that cannot be reached (a stale DISPLAY over ssh, say): the terminal
                // sheet is still there.
                context.warn("\(failure.message); showing the sheet in this terminal")
            }
        }
        if !context.standardInputIsTerminal { throw Self.noTerminal }
        // The sheet first; a run again after an answer asks only the picked activity's questions.
        let session = ShareSession(host: host, first: controller, remake: remake)
        let frontEnd = CommandFrontEnd(presenter: { terminalPresenter(pick: $0) }, ask: { askOnTerminal($0) })
        let ending = try await run(session, with: frontEnd, picking: nil, watchingInterrupts: false)
        sayKept(ending.kept)
        if ending.outcome.completed, let type = ending.outcome.activityType {
            saySkipped(by: type, on: ending.controller.sheet, labels: labels)
        }
        return reportRecorded(session.result(of: ending, interfaceCancelled: frontEnd.interfaceWasCancelled), ending)
    }

    /// Says which items the activity left out because it does not take their kind (Save to
    /// Photos given a text file): the sheet hands it only the others, which would be silent.
    private func saySkipped(by type: ActivityType, on sheet: ActivitySheet, labels: [String]) {
        for line in host.skippedItems(by: type, on: sheet, labels: labels) { context.warn(line) }
    }

    /// The terminal sheet for this command, or with `pick` only the picked activity's questions.
    private func terminalPresenter(pick: ActivityType?, catchesInterrupts: Bool? = nil) -> TerminalPresenter {
        // The sheet keeps standard output for results when they are JSON or go to a pipe.
        let onStandardOutput = context.standardOutputIsTerminal && !invocation.json
        let style = context.style(
            forTerminal: onStandardOutput ? context.standardOutputIsTerminal : context.standardErrorIsTerminal,
            descriptor: onStandardOutput ? STDOUT_FILENO : STDERR_FILENO)
        // Arrow keys and the editor only when a person sits at a real terminal on both ends.
        let interactive = context.standardInputIsTerminal && onStandardOutput && style.redrawsInPlace
        return TerminalPresenter(
            input: interactive ? context.lineEditor ?? context.lines : context.lines,
            output: onStandardOutput ? context.standardOutput : context.standardError,
            style: style,
            progressOutput: context.standardErrorIsTerminal && !invocation.quiet ? context.standardError : nil,
            progressStyle: context.style(forTerminal: context.standardErrorIsTerminal, descriptor: STDERR_FILENO),
            catchesInterrupts: catchesInterrupts ?? context.catchesInterrupts,
            keys: interactive ? context.keys : nil,
            editor: context.standardInputIsTerminal && onStandardOutput ? ExternalEditor(environment: context.environment) : nil,
            pick: pick, names: host.names)
    }

    /// The sheet as a window, in a share session; the command ends when the window has closed
    /// (a failure stays on screen until it is read) and every provider has stopped.
    private func showWindow(
        _ controller: ActivityViewController, labels: [String],
        remake: @escaping ([(key: String, value: String)]) throws -> ActivityViewController
    ) async throws -> Termination {
        let presenter = WindowPresenter(names: host.names)
        presenter.settingsFile = host.environment.directories.configurationFile
        presenter.sendsWaiting = host.sendWaiting
        presenter.settingsExtras = .installed(for: host.environment)
        let frontEnd = WindowFrontEnd(presenter: presenter)
        let session = ShareSession(host: host, first: controller, remake: remake)
        let ending = try await run(session, with: frontEnd, picking: nil, watchingInterrupts: true)
        sayKept(ending.kept)
        if let failure = presenter.failedToOpen { throw failure }
        await presenter.waitUntilClosed()
        await ending.controller.waitForProvidersToStop()
        if ending.outcome.completed, let type = ending.outcome.activityType {
            saySkipped(by: type, on: ending.controller.sheet, labels: labels)
        }
        // Retry on the result page may have sent what the share had left in the outbox.
        let result = session.result(of: ending, interfaceCancelled: presenter.interfaceWasCancelled)
            .sentAfterWaiting(at: presenter.sentWaiting)
        return reportRecorded(result, ending)
    }

    /// The `share --list …` command line for the same items, quoted for a shell.
    private func listCommand(_ head: [String] = ["share", "--list"]) -> String {
        let words = invocation.items.flatMap { item -> [String] in
            switch item {
            case .operand(let operand): return [Self.shellQuoted(operand)]
            case .text(let text): return ["--text", Self.shellQuoted(text)]
            case .standardInput: return ["-"]
            case .fileDescriptor, .bytes: return []
            }
        }
        return (head + words).joined(separator: " ")
    }

    /// A word as a POSIX shell reads it back: bare when safe, else in single quotes.
    nonisolated static func shellQuoted(_ word: String) -> String {
        let safe = word.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "@%+=:,./-_".unicodeScalars.contains(scalar))
        }
        if safe, !word.isEmpty { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Records a share the command ran in the person's history (SPEC §12) and says any warning,
    /// reports the result, and only then makes the suggestions' snapshots again, so the person
    /// does not wait on them; a share through the service is recorded by the service.
    /// Recording never fails the share.
    private func reportRecorded(_ result: ShareResult, _ ending: ShareSession.Ending) -> Termination {
        let follower = DeferredHistoryFollowing(host.suggestionSourceMaker?() as? any HistoryFollowing)
        for warning in HistoryRecording.record(result, ending: ending, environment: host.environment, follower: follower) {
            context.warn(warning)
        }
        let termination = report(result)
        follower.flush()
        return termination
    }

    /// Prints the result (the JSON object under `--json`, else what the activity returned, one
    /// per line), says any fallback in words on standard error, and returns how the command ends.
    private func report(_ result: ShareResult) -> Termination {
        let title = result.activityType.flatMap { registry.descriptor(for: ActivityType($0))?.title }
        if let steps = registry.environment.steps {
            var said = "result: \(result.activity ?? "no activity"): " + (result.completed ? "completed" : "not completed")
            if let disposition = result.disposition { said += ", \(disposition.rawValue)" }
            if let location = result.location { said += " (\(location))" }
            steps.say(said)
        }
        let termination = Termination.of(result, title: title)
        if let fallback = result.fallback {
            context.warn(fallback.message)
            if let hint = CommandWords.hint(for: fallback) { context.warn("to change this: " + hint) }
        }
        if let format = invocation.jsonFormat {
            let result = CommandWords.worded(result)
            context.standardOutput.write(((try? JSONOutput.text(result, format: format)) ?? result.json) + "\n")
        } else if termination.status == 0 || (result.completed && result.disposition == .queued) {
            // A queued share still returns where it waits.
            context.standardOutput.write(result.returnedItems.map { $0 + "\n" }.joined())
        }
        return termination
    }
}

/// Holds the interrupt watcher for its own handler, which stops it after the first Ctrl-C.
@MainActor
private final class WatcherBox {
    var watcher: InterruptWatcher?
}

extension String {
    /// The string padded with spaces to `width` characters.
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
