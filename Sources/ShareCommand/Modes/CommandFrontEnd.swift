import ShareSheet
import ShareSheetTerminal
import Sharing

/// The command's side of a share session: the presenter for each run (the terminal sheet, the
/// picked activity's questions on the terminal, or `--activity`'s scripted presenter) and how
/// a need is asked (on the terminal, in a window on a display, or not at all).
@MainActor
final class CommandFrontEnd: ShareFrontEnd {
    private let makePresenter: (ActivityType?) -> any Presenter
    private let ask: (ShareNeed) async -> String?
    private var last: (any Presenter)?

    /// - Parameters:
    ///   - presenter: the presenter for a run, given the activity picked ahead (nil: the sheet).
    ///   - ask: asks a need; nil when the person gives up or nobody can be asked.
    init(presenter: @escaping (ActivityType?) -> any Presenter, ask: @escaping (ShareNeed) async -> String?) {
        makePresenter = presenter
        self.ask = ask
    }

    func presenter(picking type: ActivityType?) -> any Presenter {
        let presenter = makePresenter(type)
        last = presenter
        return presenter
    }

    func answer(_ need: ShareNeed) async -> String? { await ask(need) }

    var shownInterface: ActivityInterface? {
        (last as? TerminalPresenter)?.shownInterface ?? (last as? ScriptedProgressPresenter)?.shownInterface
    }

    /// True when the person cancelled the activity's questions in the last run.
    var interfaceWasCancelled: Bool { (last as? TerminalPresenter)?.interfaceWasCancelled ?? false }
}
