import ShareSheet

/// What a share session needs from the front end it runs under (the terminal sheet, the
/// command's `--activity`, the window, the service): presenters, and a person to ask.
@MainActor
public protocol ShareFrontEnd: AnyObject {
    /// The presenter for the next presentation: the whole sheet when `type` is nil, else the
    /// picked activity's questions only (a run again after an answer, or `--activity`), where
    /// what is filled already is not asked again.
    func presenter(picking type: ActivityType?) -> any Presenter

    /// The presenter that shows the picked activity's form again after the person took its work
    /// back (Undo), filled with what they gave it: nothing goes until they confirm it again.
    func presenter(refilling type: ActivityType) -> any Presenter

    /// Asks the person for `need`; nil when they give up, or when nobody can be asked (a
    /// script, the service's non-interactive call): the share then ends with the failure.
    func answer(_ need: ShareNeed) async -> String?

    /// The presenter's form as shown in the last presentation, for a need's label; nil when
    /// none was.
    var shownInterface: ActivityInterface? { get }

    /// Waits for the person to choose whether the activity runs again after `outcome`, a
    /// failure that may go through another time (temporary, or something unreachable now):
    /// true for Retry. False when they close instead, or when nobody can be asked.
    func runsAgain(after outcome: ShareOutcome) async -> Bool

    /// The session has its ending (after any answers): a front end that held the last page
    /// shows it now, with what a cancel kept.
    func sessionEnded(_ ending: ShareSession.Ending)
}

extension ShareFrontEnd {
    /// Only a presenter that offers Undo (the window) can have work taken back; any other
    /// presents the activity again as it would after an answer.
    public func presenter(refilling type: ActivityType) -> any Presenter { presenter(picking: type) }

    public func sessionEnded(_ ending: ShareSession.Ending) {}

    /// Nobody is there to press Retry: the failure is the result.
    public func runsAgain(after outcome: ShareOutcome) async -> Bool { false }
}
