/// Shows an `ActivityViewController` to a person or a script.
///
/// Implementations must guarantee: they answer `present(sheet:controller:)` by calling the
/// controller's `select(_:)` or `dismiss()` (at once or later), and answer
/// `present(interface:for:controller:)` with `submitInterface(_:)` or `cancelInterface()`. They
/// never call the activity or its items themselves; the controller runs the pipeline.
@MainActor
public protocol Presenter: AnyObject {
    /// Shows what the sheet offers.
    func present(sheet: ActivitySheet, controller: ActivityViewController)

    /// Providers started producing items after the pick; show their progress until
    /// `providersDidStop(controller:)`.
    func providersDidStart(_ providers: [ProviderProgress], controller: ActivityViewController)

    /// The providers finished, failed or were cancelled.
    func providersDidStop(controller: ActivityViewController)

    /// Shows an activity's interface.
    func present(interface: ActivityInterface, for activity: Activity, controller: ActivityViewController)

    /// The presentation ended; take the sheet away.
    func dismiss(outcome: ShareOutcome, controller: ActivityViewController)

    /// True when this presenter shows the work an `UndoableActivity` holds back with an Undo
    /// button while the activity performs. False by default: nobody could undo, so waiting
    /// would only delay the share.
    var offersUndo: Bool { get }
}

extension Presenter {
    public func providersDidStart(_ providers: [ProviderProgress], controller: ActivityViewController) {}
    public func providersDidStop(controller: ActivityViewController) {}
    public func dismiss(outcome: ShareOutcome, controller: ActivityViewController) {}
    public var offersUndo: Bool { false }
}
