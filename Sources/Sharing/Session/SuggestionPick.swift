import ShareSheet

// Picking a suggestion instead of showing the sheet (SPEC §12): the service's `suggestion`
// option, and any front end that is given a suggestion's id ahead. The controller does the
// pick (`select(_:)` with the suggestion), so its presets and its "sent at once when nothing is
// left to ask" rule are the same everywhere.

extension ShareHost {
    /// The suggestion `id` names among `controller`'s, for a share that skips the sheet for it.
    /// - Throws: `ShareError(.usage)` naming the id, with `field` "suggestion", when the sheet
    ///   does not suggest it for these items (a stale id, or one made for other items).
    public func suggestion(_ id: String, on controller: ActivityViewController) throws -> ActivitySuggestion {
        guard let found = controller.suggestions.first(where: { $0.id == id }) else {
            throw ShareError(.usage, "'\(id)' is not one of the suggestions for these items", field: "suggestion")
        }
        return found
    }
}

/// A front end that picks a suggestion in its first presentation, and is `frontEnd` for the
/// rest of the session (a run again after an answer picks the suggestion's activity, with what
/// its form was given carried over by the session).
@MainActor
public final class SuggestionFrontEnd: ShareFrontEnd {
    private let frontEnd: any ShareFrontEnd
    private let suggestion: ActivitySuggestion
    private let showsSheetFirst: Bool
    private var picked = false

    /// Makes the front end.
    /// - Parameters:
    ///   - suggestion: what to pick, one of the first controller's suggestions.
    ///   - frontEnd: the presenters and the person to ask (a window, or nobody).
    ///   - showsSheetFirst: true when `frontEnd`'s presenter must be given the sheet before it
    ///     can show a form (a window opens there); false for one that would pick on its own.
    public init(picking suggestion: ActivitySuggestion, in frontEnd: any ShareFrontEnd, showsSheetFirst: Bool) {
        self.frontEnd = frontEnd
        self.suggestion = suggestion
        self.showsSheetFirst = showsSheetFirst
    }

    public func presenter(picking type: ActivityType?) -> any Presenter {
        guard !picked, type == nil else { return frontEnd.presenter(picking: type) }
        picked = true
        return SuggestionPresenter(
            picking: suggestion, in: frontEnd.presenter(picking: nil), showsSheetFirst: showsSheetFirst)
    }

    public func presenter(refilling type: ActivityType) -> any Presenter { frontEnd.presenter(refilling: type) }

    public func answer(_ need: ShareNeed) async -> String? { await frontEnd.answer(need) }

    public var shownInterface: ActivityInterface? { frontEnd.shownInterface }

    public func sessionEnded(_ ending: ShareSession.Ending) { frontEnd.sessionEnded(ending) }
}

/// Picks a suggestion when the sheet is presented, and passes everything after the pick (the
/// providers' progress, the form still to fill, the end) to the presenter it wraps.
@MainActor
final class SuggestionPresenter: Presenter {
    private let presenter: any Presenter
    private let suggestion: ActivitySuggestion
    private let showsSheetFirst: Bool

    init(picking suggestion: ActivitySuggestion, in presenter: any Presenter, showsSheetFirst: Bool) {
        self.presenter = presenter
        self.suggestion = suggestion
        self.showsSheetFirst = showsSheetFirst
    }

    func present(sheet: ActivitySheet, controller: ActivityViewController) {
        if showsSheetFirst {
            presenter.present(sheet: sheet, controller: controller)
            // The presenter could not show anything (no display): it ended the presentation.
            guard controller.phase == .showingSheet else { return }
        }
        // Looked up on this controller before (`ShareHost.suggestion(_:on:)`), so taken; were it
        // not, the share ends as a dismissed sheet does rather than wait for a pick nobody makes.
        if !controller.select(suggestion) { controller.dismiss() }
    }

    func providersDidStart(_ providers: [ProviderProgress], controller: ActivityViewController) {
        presenter.providersDidStart(providers, controller: controller)
    }

    func providersDidStop(controller: ActivityViewController) {
        presenter.providersDidStop(controller: controller)
    }

    func present(interface: ActivityInterface, for activity: Activity, controller: ActivityViewController) {
        presenter.present(interface: interface, for: activity, controller: controller)
    }

    func dismiss(outcome: ShareOutcome, controller: ActivityViewController) {
        presenter.dismiss(outcome: outcome, controller: controller)
    }

    var offersUndo: Bool { presenter.offersUndo }
}
