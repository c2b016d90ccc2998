import Foundation
import ShareSheet
import Sharing

/// Shows a sheet in a terminal: the items, the share and action rows as numbered activities,
/// a prompt for the pick, then the activity's interface field by field, with provider progress
/// on standard error.
///
/// Lines are read through a `LineSource`, which reads off the main actor, so the controller
/// keeps running (providers report progress, options stream in) while a prompt waits. An empty
/// line or `q` at the sheet dismisses it; the end of input (Ctrl-D) dismisses the sheet or
/// cancels the interface; with `catchesInterrupts`, Ctrl-C dismisses from any step.
///
/// With a `KeySource` (standard input and output both a terminal), the activity is chosen with
/// the arrow keys and by typing to filter instead of by number. Fields marked advanced (Mail's
/// Cc and Bcc) are asked only after a "More fields?" question; with an `ExternalEditor`, long
/// text fields open in the person's editor. With `pick`, there is no sheet: the activity is
/// picked at once and only the fields that still need a value are asked (`--activity` on a
/// terminal).
@MainActor
public final class TerminalPresenter: Presenter {
    /// Where typed lines come from.
    public let input: any LineSource
    /// Where the sheet and the interface are written.
    public let output: any TextOutput
    /// How the sheet and the interface are drawn.
    public let style: TerminalStyle
    /// Where provider progress is written (standard error); nil shows none.
    public let progressOutput: (any TextOutput)?
    private var activityLine: ActivityProgressLine?
    /// How progress is drawn.
    public let progressStyle: TerminalStyle
    /// True when Ctrl-C dismisses the sheet while it is presented.
    public let catchesInterrupts: Bool

    /// True when the person cancelled the activity's interface (rather than dismissing the sheet).
    public private(set) var interfaceWasCancelled = false
    /// True when Ctrl-C dismissed the sheet.
    public private(set) var wasInterrupted = false
    /// The interface the picked activity showed, if any.
    public private(set) var shownInterface: ActivityInterface?
    /// The values the person gave in that interface, once the activity took them: a share
    /// tried again (with a PIN the receiver asked for, say) starts from them.
    public private(set) var submittedValues: InterfaceValues = [:]

    private var conversation: Task<Void, Never>?
    private var promptIsOpen = false
    private var progress: ProgressDisplay?
    private var interrupts: InterruptWatcher?
    private var presentation = 0
    /// Where arrow keys come from; nil for the numbered pick.
    public let keys: (any KeySource)?
    /// The editor long text fields open in; nil to type them line by line.
    public let editor: ExternalEditor?
    /// The activity picked without showing the sheet; nil to show it.
    public let pick: ActivityType?
    /// What activities are called: the share layer's names, as every front end shows them.
    public let names: ActivityNames

    /// Makes a presenter.
    /// - Parameters:
    ///   - input: where lines are read; standard input by default.
    ///   - output: where the sheet is drawn; standard output by default.
    ///   - style: how the sheet is drawn; detected from `output`'s descriptor when it has one.
    ///   - progressOutput: where provider progress goes; nil for none.
    ///   - progressStyle: how progress is drawn.
    ///   - catchesInterrupts: whether Ctrl-C dismisses the sheet (and does not end the process).
    ///   - names: the share layer's names for the activities (the command's registry's).
    public init(
        input: any LineSource = FileDescriptorLineSource(), output: any TextOutput = FileDescriptorOutput.standardOutput,
        style: TerminalStyle = .plain, progressOutput: (any TextOutput)? = nil, progressStyle: TerminalStyle = .plain,
        catchesInterrupts: Bool = false, keys: (any KeySource)? = nil, editor: ExternalEditor? = nil,
        pick: ActivityType? = nil, names: ActivityNames = .catalog
    ) {
        self.names = names
        self.keys = keys
        self.editor = editor
        self.pick = pick
        self.input = input
        self.output = output
        self.style = style
        self.progressOutput = progressOutput
        self.progressStyle = progressStyle
        self.catchesInterrupts = catchesInterrupts
    }

    // MARK: Presenter

    public func present(sheet: ActivitySheet, controller: ActivityViewController) {
        presentation += 1
        interfaceWasCancelled = false
        wasInterrupted = false
        if catchesInterrupts, interrupts == nil {
            interrupts = InterruptWatcher { [weak self, weak controller] in
                self?.wasInterrupted = true
                // An activity that can keep what it finished does (`dismissKeepingWork`).
                controller?.dismissKeepingWork()
            }
        }
        if let pick {
            startProgressLine(controller: controller)
            if !controller.select(pick) { controller.dismiss() }
            return
        }
        let picks = SheetScreen.choices(sheet)
        // Raw mode first: when the terminal refuses it, the numbered rows are drawn instead.
        let keys = picks.isEmpty ? nil : keys.flatMap { $0.enterRawMode() ? $0 : nil }
        output.write(sheetText(controller, numbered: keys == nil))
        startProgressLine(controller: controller)
        let id = presentation
        conversation = Task { [weak self, weak controller] in
            guard let self, let controller else { return }
            if let keys {
                await self.pickWithKeys(among: picks, keys: keys, controller: controller, presentation: id)
            } else {
                await self.askForPick(among: picks, controller: controller, presentation: id)
            }
        }
    }

    private func startProgressLine(controller: ActivityViewController) {
        if let progressOutput, activityLine == nil {
            // Draws only once the picked activity runs and says how far it is.
            let line = ActivityProgressLine(
                running: { [weak controller] in controller?.runningActivity }, output: progressOutput, style: progressStyle)
            line.start()
            activityLine = line
        }
    }

    public func providersDidStart(_ providers: [ProviderProgress], controller: ActivityViewController) {
        guard let progressOutput else { return }
        activityLine?.stop()
        progress?.stop()
        let display = ProgressDisplay(providers, output: progressOutput, style: progressStyle)
        display.start()
        progress = display
    }

    public func providersDidStop(controller: ActivityViewController) {
        progress?.stop()
        progress = nil
        activityLine?.start()
    }

    public func present(interface: ActivityInterface, for activity: Activity, controller: ActivityViewController) {
        shownInterface = interface
        let id = presentation
        conversation = Task { [weak self, weak controller] in
            guard let self, let controller else { return }
            await self.fill(interface, controller: controller, presentation: id)
        }
    }

    public func dismiss(outcome: ShareOutcome, controller: ActivityViewController) {
        // The terminal is put back at once, not when the picker's task next runs.
        keys?.leaveRawMode()
        activityLine?.stop()
        activityLine = nil
        presentation += 1
        conversation?.cancel()
        conversation = nil
        progress?.stop()
        progress = nil
        interrupts?.stop()
        interrupts = nil
        // A prompt left open (Ctrl-C while it waited) gets its line ended.
        if promptIsOpen {
            output.write("\n")
            promptIsOpen = false
        }
    }

    // MARK: The pick

    private func askForPick(among shown: [SheetChoice], controller: ActivityViewController, presentation id: Int) async {
        var picks = shown
        let prompt =
            picks.isEmpty
            ? "Press Enter to close: "
            : "Pick an activity by number or name (Enter or q to cancel): "
        while true {
            guard let line = await ask(prompt, presentation: id) else {
                if isCurrent(id) { controller.dismiss() }
                return
            }
            let typed = line.trimmingCharacters(in: .whitespaces)
            if typed.isEmpty || typed.lowercased() == "q" {
                controller.dismiss()
                return
            }
            if let step = ChoiceStep.named(typed, among: ChoiceStep.offered(for: controller.sheet.itemKinds)) {
                await run(step, controller: controller, numbered: true, presentation: id)
                picks = SheetScreen.choices(controller.sheet)
                continue
            }
            guard let choice = SheetScreen.match(typed, in: picks, names: names) else {
                let hint = picks.isEmpty ? "" : ": type a number from 1 to \(picks.count), or a name"
                output.write(InterfaceScreen.problemLine("no activity '\(typed)'\(hint)", style: style))
                continue
            }
            if choice.select(on: controller) { return }
            output.write(InterfaceScreen.problemLine("\(choice.shown(names).title) cannot be picked now", style: style))
        }
    }

    /// The arrow-key picker: the matches of what was typed, one selected; Enter picks it.
    /// Raw mode ends on every way out (pick, Escape, Ctrl-C, Ctrl-D, dismissal).
    private func pickWithKeys(
        among shown: [SheetChoice], keys: any KeySource, controller: ActivityViewController, presentation id: Int
    ) async {
        defer { keys.leaveRawMode() }
        var picks = shown
        var filter = ""
        var selected = 0
        var drawnLines = 0
        func draw() -> [(number: Int, choice: SheetChoice)] {
            let matches = PickerScreen.matches(filter, among: picks, names: names)
            selected = max(0, min(selected, matches.count - 1))
            let lines = PickerScreen.lines(filter: filter, choices: matches, selected: selected, style: style, names: names)
            // Back to the picker's first line, then everything below it cleared.
            var text = drawnLines > 1 ? "\r\u{1B}[\(drawnLines - 1)A" : "\r"
            text += "\u{1B}[J" + lines.joined(separator: "\n")
            output.write(text)
            drawnLines = lines.count
            return matches
        }
        /// Replaces the picker with one line saying what happened.
        func finish(_ line: String) {
            output.write((drawnLines > 1 ? "\r\u{1B}[\(drawnLines - 1)A" : "\r") + "\u{1B}[J" + line + "\n")
            drawnLines = 0
        }
        var matches = draw()
        while isCurrent(id) {
            guard let key = await keys.nextKey(), isCurrent(id) else {
                if isCurrent(id) {
                    finish("Cancelled.")
                    controller.dismiss()
                }
                return
            }
            switch key {
            case .up:
                selected = selected > 0 ? selected - 1 : max(0, matches.count - 1)
            case .down:
                selected = selected + 1 < matches.count ? selected + 1 : 0
            case .backspace:
                if !filter.isEmpty { filter.removeLast() }
                selected = 0
            case .character(let character):
                if filter.isEmpty, character == "q" {
                    finish("Cancelled.")
                    return controller.dismiss()
                }
                filter.append(character)
                selected = 0
            case .escape, .endOfInput:
                finish("Cancelled.")
                return controller.dismiss()
            case .interrupt:
                finish("Cancelled.")
                wasInterrupted = true
                return controller.dismiss()
            case .enter:
                if let step = ChoiceStep.named(filter, among: ChoiceStep.offered(for: controller.sheet.itemKinds)) {
                    // A step asks in lines, so the picker gives the terminal back meanwhile.
                    finish("")
                    keys.leaveRawMode()
                    await run(step, controller: controller, numbered: false, presentation: id)
                    guard isCurrent(id), keys.enterRawMode() else { return controller.dismiss() }
                    picks = SheetScreen.choices(controller.sheet)
                    filter = ""
                    matches = draw()
                    continue
                }
                guard matches.indices.contains(selected) else { continue }
                let choice = matches[selected].choice
                let title = choice.shown(names).title
                finish("Picked: " + title)
                keys.leaveRawMode()
                if choice.select(on: controller) { return }
                output.write(InterfaceScreen.problemLine("\(title) cannot be picked now", style: style))
                guard keys.enterRawMode() else { return controller.dismiss() }
            case .other:
                break
            }
            matches = draw()
        }
    }

    // MARK: The interface

    private enum Answer {
        case value(InterfaceValue?)
        case endOfInput
    }

    private func fill(_ interface: ActivityInterface, controller: ActivityViewController, presentation id: Int) async {
        var values: InterfaceValues = [:]
        // Fields filled ahead (the controller applied `--to`, `--subject`…) are shown, not asked
        // again, unless the activity finds them wrong.
        let preset = interface.fields.filter { field in
            field.isPreset && field.defaultValue.map { !$0.isEmpty } == true && field.problem(with: field.defaultValue) == nil
        }
        for field in preset { values[field.id] = field.defaultValue }
        var fields = interface.fields.filter { field in !preset.contains { $0.id == field.id } }
        if pick != nil {
            // Picked from the command line: everything not given keeps its default, and only
            // what cannot do without a value is asked; nothing is drawn when nothing is.
            fields = fields.filter { $0.problem(with: $0.defaultValue) != nil }
            for field in interface.fields where values[field.id] == nil {
                if let value = field.defaultValue { values[field.id] = value }
            }
            if !fields.isEmpty { output.write(InterfaceScreen.header(interface, style: style)) }
        } else {
            let asks = fields.contains { !$0.isAdvanced || interface.asksAdvancedFields }
            output.write(InterfaceScreen.header(interface, style: style, asks: asks))
            for field in preset { output.write(InterfaceScreen.presetLine(for: field, style: style)) }
        }
        var moreAnswered = pick != nil
        // Whether the person was asked anything: a share whose every field was given ahead is
        // submitted without a confirmation.
        var askedSomething = false
        while true {
            for field in fields {
                if field.isAdvanced, !moreAnswered {
                    moreAnswered = true
                    let advanced = fields.filter(\.isAdvanced)
                    askedSomething = askedSomething || interface.asksAdvancedFields
                    let more = interface.asksAdvancedFields ? await askForMore(advanced, presentation: id) : false
                    switch more {
                    case nil:
                        guard isCurrent(id) else { return }
                        interfaceWasCancelled = true
                        controller.cancelInterface()
                        return
                    case false?:
                        for skipped in advanced { values[skipped.id] = skipped.defaultValue }
                        fields.removeAll { $0.isAdvanced }
                    case true?:
                        break
                    }
                }
                if field.isAdvanced, !fields.contains(where: { $0.id == field.id }) { continue }
                askedSomething = true
                switch await ask(field, controller: controller, presentation: id) {
                case .endOfInput:
                    guard isCurrent(id) else { return }
                    interfaceWasCancelled = true
                    controller.cancelInterface()
                    return
                case .value(let value):
                    values[field.id] = value
                }
            }
            guard isCurrent(id) else { return }
            if askedSomething, let confirmation = interface.confirmation, interface.problems(with: values).isEmpty {
                switch await confirm(confirmation(values), interface: interface, presentation: id) {
                case true?:
                    break
                case false?, nil:
                    // No, or the end of input: nothing is submitted, and the share ends cancelled.
                    guard isCurrent(id) else { return }
                    output.write(style.dim("Not sent.") + "\n")
                    interfaceWasCancelled = true
                    controller.cancelInterface()
                    return
                }
            }
            let problems = controller.submitInterface(values)
            if problems.isEmpty {
                submittedValues = values
                return
            }
            for field in interface.fields {
                if let problem = problems[field.id] { output.write(InterfaceScreen.problemLine(problem, style: style)) }
            }
            for (key, problem) in problems.sorted(by: { $0.key < $1.key })
            where !interface.fields.contains(where: { $0.id == key }) {
                output.write(InterfaceScreen.problemLine(problem, style: style))
            }
            let wrong = interface.fields.filter { problems[$0.id] != nil }
            fields = wrong.isEmpty ? interface.fields : wrong
            // A field the activity found wrong is asked again, advanced or not.
            moreAnswered = true
        }
    }

    /// Shows what submitting will do and asks "Send? [Y/n]": true for yes (or Enter), false for
    /// no, nil at the end of input.
    private func confirm(_ summary: [String], interface: ActivityInterface, presentation id: Int) async -> Bool? {
        output.write(InterfaceScreen.confirmation(summary, style: style))
        while true {
            guard let typed = await ask(InterfaceScreen.confirmationPrompt(for: interface), presentation: id) else { return nil }
            switch typed.trimmingCharacters(in: .whitespaces).lowercased() {
            case "", "y", "yes": return true
            case "n", "no": return false
            default: output.write(InterfaceScreen.problemLine("answer y or n", style: style))
            }
        }
    }

    /// "More fields (Cc, Bcc)? [y/N]": true to ask them, false to keep their defaults, nil at
    /// the end of input.
    private func askForMore(_ advanced: [InterfaceField], presentation id: Int) async -> Bool? {
        let names = advanced.map(\.label).joined(separator: ", ")
        while true {
            guard let typed = await ask("More fields (\(names))? [y/N]: ", presentation: id) else { return nil }
            switch typed.trimmingCharacters(in: .whitespaces).lowercased() {
            case "", "n", "no": return false
            case "y", "yes": return true
            default: output.write(InterfaceScreen.problemLine("answer y or n", style: style))
            }
        }
    }

    /// Asks one field until the typed text fits its kind.
    private func ask(_ field: InterfaceField, controller: ActivityViewController, presentation id: Int) async -> Answer {
        output.write(InterfaceScreen.preamble(for: field, style: style))
        let prompt = InterfaceScreen.prompt(for: field)
        let stopWatching = watchOptions(of: field, prompt: prompt, presentation: id)
        defer { stopWatching() }
        var useEditor = editor != nil && field.kind.isMultiline
        while true {
            let typed: String?
            if useEditor, let editor {
                output.write(field.label + ": " + style.dim("(opening \(editor.command)…)") + "\n")
                switch await editor.edit(field.defaultValue?.text ?? "") {
                case .success(let text):
                    guard isCurrent(id) else { return .endOfInput }
                    typed = text
                case .failure(let problem):
                    guard isCurrent(id) else { return .endOfInput }
                    output.write(InterfaceScreen.problemLine(problem.message + "; type it here instead", style: style))
                    useEditor = false
                    continue
                }
            } else if field.isSecret, let secret = input as? any SecretLineSource {
                typed = await askSecret(prompt, from: secret, presentation: id)
            } else {
                typed = await (field.kind.isMultiline ? askLines(prompt, presentation: id) : ask(prompt, presentation: id))
            }
            guard let typed else { return .endOfInput }
            let value: InterfaceValue?
            if typed.trimmingCharacters(in: .whitespaces).isEmpty {
                if case .choice(let options) = field.kind, field.defaultValue == nil, options.current.isEmpty,
                    !options.isComplete
                {
                    // Nothing to choose yet: show what has arrived since, and ask again.
                    output.write(InterfaceScreen.preamble(for: field, style: style))
                    continue
                }
                value = field.defaultValue ?? (field.kind.isToggle ? .bool(false) : nil)
            } else if let typedValue = field.value(fromText: typed) {
                guard let resolved = await resolvingNames(in: typedValue, for: field, controller: controller, presentation: id)
                else { return .endOfInput }
                value = resolved
            } else {
                output.write(InterfaceScreen.problemLine(InterfaceScreen.unreadable(typed, for: field), style: style))
                continue
            }
            // The field's own rules (required, addresses, range) are checked at once; the
            // activity's rules when the whole interface is submitted.
            if let problem = field.problem(with: value) {
                output.write(InterfaceScreen.problemLine(problem, style: style))
                continue
            }
            if let count = InterfaceScreen.countLine(for: field, value: value, style: style) {
                output.write(count.line)
                if count.isOver { continue }
            }
            return .value(value)
        }
    }

    /// The terminal's completion of an address field (the window lists matches as the person
    /// types): each entry that is not an address but names people in the contacts becomes the
    /// one it names ("bo" → "Bo Berg <bo@example.com>", said so), or the one picked by number
    /// when it names several. An entry no one matches stays, for the field to say it is not an
    /// address. Nil at the end of input.
    private func resolvingNames(
        in value: InterfaceValue, for field: InterfaceField, controller: ActivityViewController, presentation id: Int
    ) async -> InterfaceValue? {
        guard field.kind.addressKind != nil, case .list(let entries) = value else { return value }
        var resolved: [String] = []
        for entry in entries {
            let matches = field.problem(with: .list([entry])) == nil ? [] : controller.completions(for: field, typed: entry)
            switch matches.count {
            case 0:
                resolved.append(entry)
            case 1:
                output.write(style.dim("  \(entry) → \(matches[0].fieldText)") + "\n")
                resolved.append(matches[0].fieldText)
            default:
                output.write("  \(entry) names \(matches.count) people:\n")
                for (index, match) in matches.enumerated() {
                    output.write("  " + style.bold("\(index + 1))") + " \(match.name)  " + style.dim(match.address) + "\n")
                }
                while true {
                    guard let typed = await ask("Which \(entry)? (number) ", presentation: id) else { return nil }
                    let trimmed = typed.trimmingCharacters(in: .whitespaces)
                    if let number = Int(trimmed), matches.indices.contains(number - 1) {
                        resolved.append(matches[number - 1].fieldText)
                        break
                    }
                    output.write(InterfaceScreen.problemLine("type a number from 1 to \(matches.count)", style: style))
                }
            }
        }
        return .list(resolved)
    }

    /// Shows options of a streaming choice as they arrive, then puts the prompt back.
    private func watchOptions(of field: InterfaceField, prompt: String, presentation id: Int) -> () -> Void {
        guard case .choice(let options) = field.kind, !options.isComplete else { return {} }
        var watching = true
        options.observe { [weak self] option in
            guard watching, let self, self.isCurrent(id) else { return }
            let number = (options.current.firstIndex { $0.id == option.id } ?? options.current.count - 1) + 1
            let line = InterfaceScreen.optionLine(option, number: number, style: self.style)
            let lead = self.style.redrawsInPlace ? "\r\u{1B}[K" : (self.promptIsOpen ? "\n" : "")
            self.output.write(lead + line + "\n" + (self.promptIsOpen ? prompt : ""))
        }
        return { watching = false }
    }

    /// Writes `prompt` and waits for a line; nil at the end of input or once dismissed.
    func ask(_ prompt: String, presentation id: Int) async -> String? {
        guard isCurrent(id) else { return nil }
        promptIsOpen = true
        let line: String?
        if let editing = input as? any PromptingLineSource {
            // The editor draws the prompt's last line itself, to redraw it while editing.
            let head = prompt.lastIndex(of: "\n").map { prompt[...$0] } ?? ""
            output.write(String(head))
            line = await editing.readLine(prompt: String(prompt.dropFirst(head.count)))
        } else {
            output.write(prompt)
            line = await input.readLine()
        }
        guard isCurrent(id) else { return nil }
        promptIsOpen = false
        if line == nil { output.write("\n") }
        return line
    }

    /// Like `ask(_:presentation:)`, with what is typed kept off the screen.
    private func askSecret(_ prompt: String, from source: any SecretLineSource, presentation id: Int) async -> String? {
        guard isCurrent(id) else { return nil }
        let head = prompt.lastIndex(of: "\n").map { prompt[...$0] } ?? ""
        output.write(String(head))
        promptIsOpen = true
        let line = await source.readSecretLine(prompt: String(prompt.dropFirst(head.count)))
        guard isCurrent(id) else { return nil }
        promptIsOpen = false
        return line
    }

    /// Asks for lines until one holding only "."; nil at the end of input.
    func askLines(_ prompt: String, presentation id: Int) async -> String? {
        var lines: [String] = []
        var current = prompt
        while true {
            guard let line = await ask(current, presentation: id) else { return nil }
            if line == "." { return lines.joined(separator: "\n") }
            lines.append(line)
            current = ""
        }
    }

    func isCurrent(_ id: Int) -> Bool { id == presentation && !Task.isCancelled }
}

extension InterfaceField.Kind {
    var isToggle: Bool {
        if case .toggle = self { return true }
        return false
    }
}
