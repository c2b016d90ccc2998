import CGtk
import ShareSheet

/// Shows an `ActivityViewController` as a desktop window (SPEC §7). Work in progress.
@MainActor
public final class WindowPresenter: Presenter {
    public init() {}
    public func present(sheet: ActivitySheet, controller: ActivityViewController) { controller.dismiss() }
    public func present(interface: ActivityInterface, for activity: Activity, controller: ActivityViewController) {
        controller.cancelInterface()
    }
}
