import Foundation
import ShareSheet

/// A presenter that records every call it receives in a `CallLog` ("NAME: sheet",
/// "NAME: interface(TITLE)", "NAME: dismiss(TYPE)"…) and answers as a test tells it.
@MainActor
public final class RecordingPresenter: Presenter {
    /// A name used in the log.
    public let name: String
    /// Where calls are recorded.
    public let log: CallLog
    /// The activity to pick when the sheet is shown; nil leaves the sheet shown.
    public var pick: ActivityType?
    /// Values to submit when an interface is shown; nil leaves the interface shown.
    public var submit: InterfaceValues?
    /// The sheets shown, in order.
    public private(set) var shownSheets: [ActivitySheet] = []
    /// The interfaces shown, in order, as the presenter received them.
    public private(set) var shownInterfaces: [ActivityInterface] = []
    /// The outcomes the presenter was dismissed with.
    public private(set) var outcomes: [ShareOutcome] = []

    /// Makes a presenter that picks `pick` and submits `submit` to interfaces.
    public init(name: String, log: CallLog, pick: ActivityType? = nil, submit: InterfaceValues? = nil) {
        self.name = name
        self.log = log
        self.pick = pick
        self.submit = submit
    }

    public func present(sheet: ActivitySheet, controller: ActivityViewController) {
        log.record("\(name): sheet")
        shownSheets.append(sheet)
        if let pick { controller.select(pick) }
    }

    public func providersDidStart(_ providers: [ProviderProgress], controller: ActivityViewController) {
        log.record("\(name): providers(\(providers.map(\.name).joined(separator: ", ")))")
    }

    public func providersDidStop(controller: ActivityViewController) {
        log.record("\(name): providersStopped")
    }

    public func present(interface: ActivityInterface, for activity: Activity, controller: ActivityViewController) {
        log.record("\(name): interface(\(interface.title))")
        shownInterfaces.append(interface)
        if let submit { controller.submitInterface(submit) }
    }

    public func dismiss(outcome: ShareOutcome, controller: ActivityViewController) {
        log.record("\(name): dismiss(\(outcome.activityType?.rawValue ?? "nil"))")
        outcomes.append(outcome)
    }
}
