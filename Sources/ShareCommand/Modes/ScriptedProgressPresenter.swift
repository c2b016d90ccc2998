import ShareSheet
import ShareSheetTerminal

/// `--activity`'s presenter: a `ScriptedPresenter` that picks and fills the interface without
/// asking anyone, plus provider progress on standard error when it is a terminal.
@MainActor
final class ScriptedProgressPresenter: Presenter {
    private let scripted: ScriptedPresenter
    private let progressOutput: (any TextOutput)?
    private let progressStyle: TerminalStyle
    private var progress: ProgressDisplay?
    private var activityLine: ActivityProgressLine?

    /// The interface the activity showed, if any.
    var shownInterface: ActivityInterface? { scripted.shownInterface }

    init(pick: ActivityType, progressOutput: (any TextOutput)?, progressStyle: TerminalStyle) {
        scripted = ScriptedPresenter(pick: pick)
        scripted.settingSyntax = Self.settingSyntax
        self.progressOutput = progressOutput
        self.progressStyle = progressStyle
    }

    /// The fields the command has an option of its own for: messages name `--to`, not `--set to=`.
    nonisolated static let fieldOptions: Set<String> = ["to", "subject", "text", "app"]

    /// How a field is given on the command line: its own option when it has one, else `--set`.
    nonisolated static func settingSyntax(_ id: String, _ value: String?) -> String {
        guard fieldOptions.contains(id) else { return "--set \(id)=\(value ?? "…")" }
        return "--\(id) " + (value.map(Runner.shellQuoted) ?? "…")
    }

    func present(sheet: ActivitySheet, controller: ActivityViewController) {
        if let progressOutput {
            // Draws only once the activity runs and says how far it is (bytes sent, pages).
            let line = ActivityProgressLine(
                running: { [weak controller] in controller?.runningActivity }, output: progressOutput, style: progressStyle)
            line.start()
            activityLine = line
        }
        scripted.present(sheet: sheet, controller: controller)
    }

    func providersDidStart(_ providers: [ProviderProgress], controller: ActivityViewController) {
        scripted.providersDidStart(providers, controller: controller)
        activityLine?.stop()
        guard let progressOutput else { return }
        let display = ProgressDisplay(providers, output: progressOutput, style: progressStyle)
        display.start()
        progress = display
    }

    func providersDidStop(controller: ActivityViewController) {
        progress?.stop()
        progress = nil
        activityLine?.start()
    }

    func present(interface: ActivityInterface, for activity: Activity, controller: ActivityViewController) {
        scripted.present(interface: interface, for: activity, controller: controller)
    }

    func dismiss(outcome: ShareOutcome, controller: ActivityViewController) {
        activityLine?.stop()
        activityLine = nil
        progress?.stop()
        progress = nil
        scripted.dismiss(outcome: outcome, controller: controller)
    }
}
