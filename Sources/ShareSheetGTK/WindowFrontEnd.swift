import ShareSheet
import Sharing

/// A share session in the window: the sheet and the activity's form in one `WindowPresenter`,
/// a page that asks for what the activity found missing (a PIN), the form again after Undo, and
/// the ending shown once the session knows it (what a Cancel kept included).
@MainActor
public final class WindowFrontEnd: ShareFrontEnd {
    /// The window's presenter, for every presentation of the session.
    public let presenter: WindowPresenter

    /// A front end over `presenter`.
    public init(presenter: WindowPresenter) {
        self.presenter = presenter
        presenter.holdsEndings = true
    }

    public func presenter(picking type: ActivityType?) -> any Presenter {
        if let type {
            presenter.preselected = type
            // A run again after an answer: what the form had is set ahead, so it is not asked again.
            presenter.sendsFilledForms = true
        }
        return presenter
    }

    public func presenter(refilling type: ActivityType) -> any Presenter {
        // The form shows again with what the person gave it; nothing goes before they send it.
        presenter.preselected = type
        presenter.sendsFilledForms = false
        return presenter
    }

    public func answer(_ need: ShareNeed) async -> String? {
        await presenter.ask(need)
    }

    public func runsAgain(after outcome: ShareOutcome) async -> Bool {
        await presenter.waitForRetry()
    }

    public var shownInterface: ActivityInterface? { presenter.shownInterface }

    public func sessionEnded(_ ending: ShareSession.Ending) {
        presenter.showEnding(kept: ending.kept)
    }
}
