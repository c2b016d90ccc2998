import Foundation
import ShareSheet

/// Shows a sheet in a terminal: the items, the share and action rows as numbered activities,
/// a prompt for the pick, then the activity's interface field by field, with provider progress
/// on standard error.
///
/// Lines are read through a `LineSource`, which reads off the main actor, so the controller
/// keeps running (providers report progress, options stream in) while a prompt waits. An empty
/// line or `q` at the sheet dismisses it; the end of input (Ctrl-D) dismisses the sheet or
/// cancels the interface; with `catchesInterrupts`, Ctrl-C dismisses from any step.
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
    /// The running activity Ctrl-C asked to keep its work (see `InterruptibleActivity`).
    public internal(set) var interruptedActivity: InterruptibleActivity?
    /// The interface the picked activity showed, if any.
    public private(set) var shownInterface: ActivityInterface?

    private var conversation: Task<Void, Never>?
    private var promptIsOpen = false
    private var progress: ProgressDisplay?
    private var interrupts: InterruptWatcher?
    private var presentation = 0

    /// Makes a presenter.
    /// - Parameters:
    ///   - input: where lines are read; standard input by default.
    ///   - output: where the sheet is drawn; standard output by default.
    ///   - style: how the sheet is drawn; detected from `output`'s descriptor when it has one.
    ///   - progressOutput: where provider progress goes; nil for none.
    ///   - progressStyle: how progress is drawn.
    ///   - catchesInterrupts: whether Ctrl-C dismisses the sheet (and does not end the process).
    public init(
        input: any LineSource = FileDescriptorLineSource(), output: any TextOutput = FileDescriptorOutput.standardOutput,
        style: TerminalStyle = .plain, progressOutput: (any TextOutput)? = nil, progressStyle: TerminalStyle = .plain,
        catchesInterrupts: Bool = false
    ) {
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
                self?.keepWork(of: controller)
                controller?.dismiss()
            }
        }
        output.write(SheetScreen.render(sheet, items: controller.activityItems, style: style))
        if let progressOutput, activityLine == nil {
            // Draws only once the picked activity runs and says how far it is.
            let line = ActivityProgressLine(
                running: { [weak controller] in controller?.runningActivity }, output: progressOutput, style: progressStyle)
            line.start()
            activityLine = line
        }
        let picks = SheetScreen.pickable(sheet)
        let id = presentation
        conversation = Task { [weak self, weak controller] in
            guard let self, let controller else { return }
            await self.askForPick(among: picks, controller: controller, presentation: id)
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

    private func askForPick(among picks: [Activity], controller: ActivityViewController, presentation id: Int) async {
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
            guard let activity = SheetScreen.match(typed, in: picks), let type = activity.activityType else {
                let hint = picks.isEmpty ? "" : ": type a number from 1 to \(picks.count), or a name"
                output.write(InterfaceScreen.problemLine("no activity '\(typed)'\(hint)", style: style))
                continue
            }
            if controller.select(type) { return }
            output.write(InterfaceScreen.problemLine("\(activity.displayTitle) cannot be picked now", style: style))
        }
    }

    // MARK: The interface

    private enum Answer {
        case value(InterfaceValue?)
        case endOfInput
    }

    private func fill(_ interface: ActivityInterface, controller: ActivityViewController, presentation id: Int) async {
        output.write(InterfaceScreen.header(interface, style: style))
        var values: InterfaceValues = [:]
        // Fields filled ahead (the controller applied `--to`, `--subject`…) are shown, not asked
        // again, unless the activity finds them wrong.
        let preset = interface.fields.filter { field in
            field.isPreset && field.defaultValue.map { !$0.isEmpty } == true && field.problem(with: field.defaultValue) == nil
        }
        for field in preset {
            output.write(InterfaceScreen.presetLine(for: field, style: style))
            values[field.id] = field.defaultValue
        }
        var fields = interface.fields.filter { field in !preset.contains { $0.id == field.id } }
        while true {
            for field in fields {
                switch await ask(field, presentation: id) {
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
            let problems = controller.submitInterface(values)
            if problems.isEmpty { return }
            for field in interface.fields {
                if let problem = problems[field.id] { output.write(InterfaceScreen.problemLine(problem, style: style)) }
            }
            for (key, problem) in problems.sorted(by: { $0.key < $1.key })
            where !interface.fields.contains(where: { $0.id == key }) {
                output.write(InterfaceScreen.problemLine(problem, style: style))
            }
            let wrong = interface.fields.filter { problems[$0.id] != nil }
            fields = wrong.isEmpty ? interface.fields : wrong
        }
    }

    /// Asks one field until the typed text fits its kind.
    private func ask(_ field: InterfaceField, presentation id: Int) async -> Answer {
        output.write(InterfaceScreen.preamble(for: field, style: style))
        let prompt = InterfaceScreen.prompt(for: field)
        let stopWatching = watchOptions(of: field, prompt: prompt, presentation: id)
        defer { stopWatching() }
        while true {
            guard let typed = await (field.kind.isMultiline ? askLines(prompt, presentation: id) : ask(prompt, presentation: id))
            else { return .endOfInput }
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
                value = typedValue
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
            return .value(value)
        }
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
    private func ask(_ prompt: String, presentation id: Int) async -> String? {
        guard isCurrent(id) else { return nil }
        output.write(prompt)
        promptIsOpen = true
        let line = await input.readLine()
        guard isCurrent(id) else { return nil }
        promptIsOpen = false
        if line == nil { output.write("\n") }
        return line
    }

    /// Asks for lines until one holding only "."; nil at the end of input.
    private func askLines(_ prompt: String, presentation id: Int) async -> String? {
        var lines: [String] = []
        var current = prompt
        while true {
            guard let line = await ask(current, presentation: id) else { return nil }
            if line == "." { return lines.joined(separator: "\n") }
            lines.append(line)
            current = ""
        }
    }

    private func isCurrent(_ id: Int) -> Bool { id == presentation && !Task.isCancelled }
}

extension InterfaceField.Kind {
    var isToggle: Bool {
        if case .toggle = self { return true }
        return false
    }
}
