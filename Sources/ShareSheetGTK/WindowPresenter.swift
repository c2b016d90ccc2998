import CGtk
import Foundation
import ShareSheet
import Sharing

/// Shows an `ActivityViewController` as a desktop window (SPEC §7): a header with a preview of
/// the items, the share and action rows as icon buttons, the picked activity's interface as a
/// form, progress with a Cancel button while providers and the activity work, and a failure kept
/// on screen until it is read.
///
/// Everything here runs on the main actor, which `GLibMainLoop` runs inside GLib's main loop on
/// the main thread, where GTK wants it. Providers and activities do their work elsewhere; the
/// window only draws what they report, so it never freezes.
@MainActor
public final class WindowPresenter: Presenter {
    /// True when the person cancelled the activity's form (rather than dismissing the sheet).
    public private(set) var interfaceWasCancelled = false
    /// The form the picked activity showed, if any.
    public private(set) var shownInterface: ActivityInterface?
    /// True once the window is gone.
    public private(set) var isClosed = false

    private let names: ActivityNames?
    private let windowTitle: String
    /// An activity to pick as soon as the sheet is up (a caller that skips the sheet but lets
    /// the person fill the activity's form); the sheet shows while it is not offered.
    public var preselected: ActivityType?
    /// Another application's window this one belongs to: `x11:XID` or `wayland:HANDLE`
    /// (xdg-foreign), as portals take it; the window is kept above it.
    public var parentWindow: String?
    private var window: Window?
    private var page: Page = .none
    private var closeWaiters: [CheckedContinuation<Void, Never>] = []

    /// What the window shows now, and what Escape or the close button does there.
    private enum Page {
        case none
        case sheet
        case form
        case working
        case result
    }

    /// Makes a presenter.
    /// - Parameters:
    ///   - names: the icon and title of each activity; made from the controller's registry when nil.
    ///   - title: the window's title.
    public init(names: ActivityNames? = nil, title: String = "Share") {
        self.names = names
        windowTitle = title
    }

    // MARK: Opening a window at all

    /// True when `environment` names a display to open a window on (`DISPLAY` or `WAYLAND_DISPLAY`).
    public nonisolated static func hasDisplay(_ environment: [String: String]) -> Bool {
        !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
    }

    /// Connects to the display once (GTK and libadwaita); throws when it cannot be opened.
    /// Call it on the main thread inside `GLibMainLoop` before presenting.
    public static func connectToDisplay() throws {
        if DisplayConnection.isOpen { return }
        guard Renderer.withoutGL({ gtk_init_check() }) != 0 else {
            let name = ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"] ?? ProcessInfo.processInfo.environment["DISPLAY"] ?? ""
            throw ShareError(.unavailable, "cannot open a window on display '\(name)'", fix: .useTerminal)
        }
        adw_init()
        DisplayConnection.isOpen = true
        IconLookup.addSearchPaths(IconFolders.searchPaths())
        Stylesheet.install()
    }

    /// Waits until the window has closed (after a failure, when the person closes it).
    public func waitUntilClosed() async {
        if isClosed || window == nil { return }
        await withCheckedContinuation { closeWaiters.append($0) }
    }

    // MARK: Presenter

    public func present(sheet: ActivitySheet, controller: ActivityViewController) {
        do {
            try Self.connectToDisplay()
        } catch {
            failedToOpen = error
            return controller.dismiss()
        }
        interfaceWasCancelled = false
        shownInterface = nil
        let window = self.window ?? makeWindow(controller: controller)
        let sheetPage = SheetPage(
            sheet: sheet, names: names ?? ActivityNames(registry: controller.registry),
            pick: { [weak self, weak controller] activity in
                guard let self, let controller else { return }
                self.pick(activity, controller: controller)
            })
        window.show(sheetPage.widget, title: windowTitle, subtitle: nil, willLeave: sheetPage.stopCapturingTyping)
        sheetPage.captureTyping(in: window.widget)
        page = .sheet
        sheetPage.focusFirstActivity()
        Renderer.realize(window.widget)
        if let parentWindow { window.makeTransient(for: parentWindow) }
        gtk_window_present(cg_window(window.widget))
        if let preselected, let activity = sheet.activities.first(where: { $0.activityType == preselected }) {
            self.preselected = nil
            pick(activity, controller: controller)
        }
    }

    /// Why the window could not be opened, when it could not.
    public private(set) var failedToOpen: (any Error)?

    public func providersDidStart(_ providers: [ProviderProgress], controller: ActivityViewController) {
        workingPage?.showProviders(providers)
    }

    public func providersDidStop(controller: ActivityViewController) {
        workingPage?.showProviders([])
    }

    public func present(interface: ActivityInterface, for activity: Activity, controller: ActivityViewController) {
        guard let window else { return controller.cancelInterface() }
        shownInterface = interface
        workingPage?.stop()
        workingPage = nil
        let form = FormPage(
            interface: interface, activityTitle: activity.activityTitle ?? interface.title,
            submit: { [weak self, weak controller] values in
                guard let self, let controller else { return [:] }
                let problems = controller.submitInterface(values)
                if problems.isEmpty { self.showWorking(activity, controller: controller) }
                return problems
            },
            cancel: { [weak self, weak controller] in
                self?.interfaceWasCancelled = true
                controller?.cancelInterface()
            })
        window.show(form.widget, title: interface.title, subtitle: activity.activityTitle)
        formPage = form
        page = .form
        form.focusFirstField()
    }

    public func dismiss(outcome: ShareOutcome, controller: ActivityViewController) {
        workingPage?.stop()
        workingPage = nil
        formPage = nil
        guard let window else { return }
        let title = outcome.activityType.flatMap { type in controller.sheet.activities.first { $0.activityType == type } }?
            .activityTitle
        if let error = outcome.error, case let failure = ShareResult.Failure(error, activityTitle: title),
            failure.code != .cancelled
        {
            let result = ResultPage.failure(
                message: failure.message, hint: failure.plainAdvice, close: { [weak self] in self?.close() })
            window.show(result.widget, title: title ?? windowTitle, subtitle: "Did not complete")
            page = .result
            result.focus()
        } else if let fallback = outcome.fallback {
            let result = ResultPage.fallback(fallback, close: { [weak self] in self?.close() })
            window.show(result.widget, title: title ?? windowTitle, subtitle: nil)
            page = .result
            result.focus()
            // Long enough to read one sentence; the Close button is there for the impatient.
            _ = Signals.every(milliseconds: 2500) { [weak self] in
                self?.close()
                return false
            }
        } else {
            close()
        }
    }

    // MARK: Steps

    private var workingPage: WorkingPage?
    private var formPage: FormPage?

    private func pick(_ activity: Activity, controller: ActivityViewController) {
        guard page == .sheet, let type = activity.activityType else { return }
        showWorking(activity, controller: controller)
        // Providers and the interface may arrive inside select(); the working page is up first.
        if !controller.select(type), page == .working {
            workingPage?.stop()
            workingPage = nil
            window?.toast("\(activity.activityTitle ?? "This activity") cannot be picked now")
            present(sheet: controller.sheet, controller: controller)
        }
    }

    private func showWorking(_ activity: Activity, controller: ActivityViewController) {
        guard let window else { return }
        let working = WorkingPage(
            activity: activity, running: { [weak controller] in controller?.runningActivity },
            cancel: { [weak controller] in controller?.dismiss() })
        window.show(working.widget, title: activity.activityTitle ?? windowTitle, subtitle: nil)
        workingPage = working
        page = .working
        working.start()
    }

    /// Escape or the window's close button: leave the step the person is in.
    private func leave(controller: ActivityViewController?) {
        switch page {
        case .none:
            close()
        case .sheet, .working:
            if let controller, controller.phase != .idle { controller.dismiss() } else { close() }
        case .form:
            formPage?.cancel()
        case .result:
            close()
        }
    }

    // MARK: The window

    private func makeWindow(controller: ActivityViewController) -> Window {
        let window = Window(title: windowTitle)
        window.onLeave = { [weak self, weak controller] in self?.leave(controller: controller) }
        window.onDestroyed = { [weak self] in self?.windowWasDestroyed() }
        self.window = window
        return window
    }

    /// Closes the window whatever it shows: for a window's owner that ends the share from
    /// outside (the service's caller closed its request or left). Dismiss the controller first
    /// when it still runs; this only takes the window away, a result page included.
    public func closeWindow() { close() }

    private func close() {
        guard let window, !isClosed else { return }
        page = .none
        window.destroy()
    }

    private func windowWasDestroyed() {
        isClosed = true
        window = nil
        let waiting = closeWaiters
        closeWaiters = []
        for waiter in waiting { waiter.resume() }
    }
}

/// Whether GTK is initialized in this process.
@MainActor
private enum DisplayConnection {
    static var isOpen = false
}
