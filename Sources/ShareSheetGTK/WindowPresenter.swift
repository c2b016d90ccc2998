import CGtk
import Foundation
import ShareSheet
import ShareSheetSystem
import Sharing

/// Shows an `ActivityViewController` as a desktop window (SPEC §7): a header with a preview of
/// the items, the share and action rows as icon buttons, the picked activity's interface as a
/// form, progress with a Cancel button while providers and the activity work, a page with Undo
/// while a send waits to be taken back, and a failure or a fallback kept on screen, with what
/// fixes or follows it up, until the person closes it.
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
    /// False when the caller sends every item (the service's `choose-items` false): the header
    /// shows the items without the checks that leave one out.
    public var letsItemsBeLeftOut = true
    /// Sends what a share left waiting in the outbox (its file), for the result page's Retry
    /// once the settings changed; nil offers no such Retry. The owner gives its host's
    /// (`ShareHost.sendWaiting`): the window knows no backend.
    public var sendsWaiting: (@Sendable (String) async throws -> Void)?
    /// The configuration file the settings window edits.
    public var settingsFile = HostEnvironment.process.directories.configurationFile
    /// What the settings window shows beside the file's values (the share targets installed).
    public var settingsExtras = SettingsExtras()
    /// The file of what waited in the outbox and went with the result page's Retry, if any: the
    /// share's result said it was queued, and it is not any more.
    public private(set) var sentWaiting: String?
    private var window: Window?
    private var page: Page = .none
    /// The result page's story and title while it shows, to show it again changed.
    private var shownStory: (story: ResultStory, title: String, activityType: ActivityType?)?
    private var settingsWindow: SettingsWindow?
    private var closeWaiters: [CheckedContinuation<Void, Never>] = []
    /// Set by a share session (`WindowFrontEnd`): an ending it may still act on (a need it asks
    /// for, work a cancel kept) is held on the working page instead of shown, until
    /// `showEnding` says how the share ended.
    var holdsEndings = false
    /// Set by a share session for a run again after an answer: a form whose every field is
    /// filled already is sent at once instead of shown again.
    var sendsFilledForms = false
    /// The ending held for the session, with the controller's activity title.
    private var heldOutcome: (outcome: ShareOutcome, title: String?)?
    /// The controller presented last (a session presents one per run).
    private weak var presented: ActivityViewController?
    /// The page asking for a need, while it asks.
    private var needPage: NeedPage?
    /// The page of a send that waits to be undone, while it shows.
    private var undoPage: UndoPage?
    /// The activity whose send waits on the Undo page.
    private weak var waitingActivity: (any UndoableActivity)?

    /// What the window shows now, and what Escape or the close button does there.
    private enum Page {
        case none
        case sheet
        case form
        case working
        case result
        case need
        case undo
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
        ProgramName.claim()
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

    /// The window shows a held send with Undo (`UndoPage`).
    public var offersUndo: Bool { true }

    public func present(sheet: ActivitySheet, controller: ActivityViewController) {
        do {
            try Self.connectToDisplay()
        } catch {
            failedToOpen = error
            return controller.dismiss()
        }
        interfaceWasCancelled = false
        shownInterface = nil
        heldOutcome = nil
        // A send stopped in an earlier run of the session is not this run's ending.
        stoppedSend = nil
        leaveUndoPage()
        presented = controller
        let window = self.window ?? makeWindow()
        let sheetPage = SheetPage(
            sheet: sheet, names: names ?? ActivityNames(registry: controller.registry),
            choosing: ItemChoosing(controller: controller, letsItemsBeLeftOut: letsItemsBeLeftOut),
            pick: { [weak self, weak controller] activity in
                guard let self, let controller else { return }
                self.pick(activity, controller: controller)
            },
            pickSuggestion: { [weak self, weak controller] suggestion in
                guard let self, let controller else { return }
                self.pick(suggestion, controller: controller)
            })
        let shown = SheetShowing()
        window.show(
            sheetPage.widget, title: windowTitle, subtitle: nil,
            willLeave: { [weak controller] in
                shown.left = true
                sheetPage.stopCapturingTyping()
                controller?.stopFollowingSuggestions()
            })
        sheetPage.captureTyping(in: window.widget)
        // Devices that come into range join the suggestions while the sheet is shown. Looking
        // for them (a multicast socket, the device's certificate read, OpenSSL loaded) starts
        // once the window is drawn: on two cores it delayed the window by a few milliseconds,
        // and no device can answer before the window shows anyway.
        Signals.whenIdle { [weak sheetPage, weak controller] in
            guard !shown.left, let controller else { return }
            controller.followSuggestions { [weak sheetPage, weak controller] in
                guard let sheetPage, let controller else { return }
                sheetPage.showSuggestions(controller.suggestions)
            }
        }
        page = .sheet
        sheetPage.focusFirstActivity()
        Renderer.realize(window.widget)
        if let parentWindow { window.makeTransient(for: parentWindow) }
        gtk_window_present(cg_window(window.widget))
        // The map request goes to the display now, not when the main loop next turns to GDK
        // after the work queued on the main actor meanwhile.
        gdk_display_flush(gdk_display_get_default())
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
        if sendsFilledForms {
            sendsFilledForms = false
            var values: InterfaceValues = [:]
            for field in interface.fields { values[field.id] = field.defaultValue }
            if interface.fields.allSatisfy({ $0.problem(with: $0.defaultValue) == nil }),
                controller.submitInterface(values).isEmpty
            {
                return
            }
        }
        workingPage?.stop()
        workingPage = nil
        if showDesignedPage(interface, for: activity, controller: controller, in: window) { return }
        let form = FormPage(
            interface: interface, activityTitle: activity.activityTitle ?? interface.title,
            // Print's printer list is the first thing its page shows, Save as PDF included.
            leading: activity.activityType == .print ? "printer" : nil,
            submit: { [weak self, weak controller] values in
                guard let self, let controller else { return [:] }
                let problems = controller.submitInterface(values)
                if problems.isEmpty { self.showWorking(activity, controller: controller) }
                return problems
            },
            back: { [weak self, weak controller] in
                self?.formPage = nil
                controller?.returnToSheet()
            },
            cancel: { [weak self, weak controller] in
                self?.interfaceWasCancelled = true
                controller?.cancelInterface()
            },
            complete: { [weak controller] field, text in controller?.completions(for: field, typed: text) ?? [] })
        // The title says the activity once: no subtitle repeating it ("Print", "Print").
        let subtitle = activity.activityTitle == interface.title ? nil : activity.activityTitle
        window.show(form.widget, title: interface.title, subtitle: subtitle)
        formPage = form
        page = .form
        form.focusFirstField()
    }

    /// The page made for the activity in place of the generic form (SPEC §7, "designed, not
    /// generated"): AirDrop's devices, Assign to Contact's contacts, Open In's applications.
    /// False when the activity has none, or its interface lacks what the page is drawn from.
    private func showDesignedPage(
        _ interface: ActivityInterface, for activity: Activity, controller: ActivityViewController, in window: Window
    ) -> Bool {
        let submit: @MainActor (InterfaceValues) -> [String: String] = { [weak self, weak controller] values in
            guard let self, let controller else { return [:] }
            let problems = controller.submitInterface(values)
            if problems.isEmpty {
                self.designedPage = nil
                self.showWorking(activity, controller: controller)
            }
            return problems
        }
        let back: @MainActor () -> Void = { [weak self, weak controller] in
            self?.designedPage = nil
            controller?.returnToSheet()
        }
        let cancel: @MainActor () -> Void = { [weak self, weak controller] in
            self?.interfaceWasCancelled = true
            controller?.cancelInterface()
        }
        let made: (any DesignedPage)?
        switch activity.activityType {
        case .airDrop?: made = AirDropPage(interface: interface, submit: submit, back: back, cancel: cancel)
        case .assignToContact?: made = ContactPickerPage(interface: interface, submit: submit, back: back, cancel: cancel)
        case .openIn?: made = ApplicationChooserPage(interface: interface, submit: submit, back: back, cancel: cancel)
        default: made = nil
        }
        guard let made else { return false }
        window.show(made.widget, title: activity.activityTitle ?? interface.title, subtitle: nil)
        designedPage = made
        page = .form
        made.focus()
        return true
    }

    public func dismiss(outcome: ShareOutcome, controller: ActivityViewController) {
        // A dismissal names no activity: the one that was running (and keeps its work) does.
        let title =
            outcome.activityType.flatMap { type in controller.sheet.activities.first { $0.activityType == type } }?
            .activityTitle ?? (controller.interruptedActivity as? Activity)?.activityTitle
        // What the session may still act on stays on the working page, still for now.
        // Work the person took back (Undo) too: the session shows the form again.
        let undone = outcome.activityType.flatMap { type in controller.sheet.activities.first { $0.activityType == type } }
            .map { ($0 as? UndoableActivity)?.wasUndone == true } ?? false
        if holdsEndings, window != nil,
            controller.interruptedActivity != nil || undone
                || (outcome.error as? ShareError).map({ $0.field != nil && $0.kind != .cancelled }) == true
        {
            heldOutcome = (outcome, title)
            workingPage?.showStopping()
            formPage = nil
            designedPage = nil
            return
        }
        show(outcome, title: title)
    }

    /// Shows how a presentation ended: a failure or a fallback on a result page that stays until
    /// the person closes it (SPEC §7: results that need the person stay), or nothing (the
    /// window closes).
    private func show(_ outcome: ShareOutcome, title: String?) {
        workingPage?.stop()
        workingPage = nil
        leaveUndoPage()
        formPage = nil
        designedPage = nil
        retryChoice = nil
        guard window != nil else { return }
        let story: ResultStory
        if let error = outcome.error, case let failure = ShareResult.Failure(error, activityTitle: title),
            failure.code != .cancelled
        {
            // Retry runs the share again through the session, which asks once this page is up.
            story = ResultStory.failure(failure, activityType: outcome.activityType, canRetry: holdsEndings)
        } else if let fallback = outcome.fallback {
            story = ResultStory.fallback(
                fallback, disposition: outcome.disposition, location: outcome.location, activityType: outcome.activityType)
        } else if let stopped = stoppedSend, !outcome.completed {
            // The person stopped a send: say that nothing of it is left waiting anywhere.
            story = ResultStory.stopped(stopped)
        } else {
            return close()
        }
        showStory(story, title: title ?? windowTitle, activityType: outcome.activityType, location: outcome.location)
    }

    /// Shows a result page for `story`, with what each of its buttons does.
    private func showStory(_ story: ResultStory, title: String, activityType: ActivityType?, location: String?) {
        guard let window else { return }
        let result = ResultPage(
            story: story, close: { [weak self] in self?.close() }, retry: { [weak self] in self?.chooseRetry() },
            tell: { [weak self] sentence in self?.window?.toast(sentence) },
            settings: { [weak self] in self?.openSettings(location: location) },
            sendWaiting: { [weak self] path in self?.sendWaiting(path) })
        window.show(result.widget, title: title, subtitle: nil)
        page = .result
        shownStory = (story, title, activityType)
        result.focus()
    }

    // MARK: Settings… and Retry of what waits

    /// Settings… on a result page: the settings window, above this one. Once saved, what
    /// waits in the outbox may go: the page offers Retry.
    private func openSettings(location: String?) {
        guard let window else { return }
        if let settingsWindow, !settingsWindow.isClosed { return settingsWindow.raise() }
        settingsWindow = SettingsWindow(
            file: settingsFile, extras: settingsExtras, parent: window.widget,
            saved: { [weak self] in
                guard let self, self.page == .result, self.sendsWaiting != nil, let shown = self.shownStory else { return }
                let story = shown.story.offeringToSendWaiting(location)
                if story != shown.story {
                    self.showStory(story, title: shown.title, activityType: shown.activityType, location: location)
                }
            })
    }

    /// Retry of what waits in the outbox: it goes now, with the settings as saved; the page
    /// then says it went, or why not (with Retry again when it may go another time).
    private func sendWaiting(_ path: String) {
        guard let send = sendsWaiting, let shown = shownStory, page == .result else { return }
        let sending = window?.toast("Sending…")
        page = .working
        Task { @MainActor [weak self] in
            let error: (any Error)?
            do {
                try await send(path)
                error = nil
            } catch let failed {
                error = failed
            }
            sending?.dismiss()
            guard let self, self.window != nil, !self.isClosed else { return }
            guard let error else {
                self.sentWaiting = path
                return self.showStory(
                    .sentWaiting(activityType: shown.activityType), title: shown.title, activityType: shown.activityType,
                    location: nil)
            }
            let failure = ShareResult.Failure(error, activityTitle: shown.title)
            var story = ResultStory.failure(failure, activityType: shown.activityType, canRetry: false)
            // Retry again when it may go another time, or once a setting is fixed.
            if ShareSession.mayGoThrough(error) || (error as? ShareError)?.fix != nil {
                story.actions.insert(.sendWaiting(path: path), at: 0)
            }
            self.showStory(story, title: shown.title, activityType: shown.activityType, location: path)
        }
    }

    // MARK: Retry

    /// What the person chose on a failure's page, before the session asked: true for Retry.
    private var retryChoice: Bool?
    private var retryWaiter: CheckedContinuation<Bool, Never>?

    /// Waits for Retry (true) or for the window to close (false) on the failure page the window
    /// shows; false at once when it shows none.
    func waitForRetry() async -> Bool {
        if let chosen = retryChoice {
            retryChoice = nil
            return chosen
        }
        guard page == .result, window != nil, !isClosed else { return false }
        return await withCheckedContinuation { retryWaiter = $0 }
    }

    private func chooseRetry() {
        guard page == .result else { return }
        if let waiter = retryWaiter {
            retryWaiter = nil
            waiter.resume(returning: true)
        } else {
            retryChoice = true
        }
    }

    // MARK: A share session's steps

    /// Asks for what the activity found missing while it ran, on a page of the window (a
    /// window of its own when there is none: `share --activity` on a display without a
    /// terminal); nil when the person gives up.
    public func ask(_ need: ShareNeed) async -> String? {
        do {
            try Self.connectToDisplay()
        } catch {
            return nil
        }
        let ownWindow = window == nil
        let window = self.window ?? makeWindow()
        let previousPage = page
        let answer = await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
            let asking = NeedPage(need: need) { continuation.resume(returning: $0) }
            needPage = asking
            window.show(asking.widget, title: need.activityTitle, subtitle: nil)
            page = .need
            if ownWindow {
                Renderer.realize(window.widget)
                if let parentWindow { window.makeTransient(for: parentWindow) }
                gtk_window_present(cg_window(window.widget))
            }
            asking.focus()
        }
        needPage = nil
        page = previousPage
        if ownWindow {
            close()
        } else if answer == nil, let held = heldOutcome {
            heldOutcome = nil
            show(held.outcome, title: held.title)
        }
        return answer
    }

    /// How the session ended, once it knows: work a cancel kept is said with Close; an ending
    /// held for the session is shown as any other.
    public func showEnding(kept: KeptWork?) {
        let held = heldOutcome
        heldOutcome = nil
        guard let window, !isClosed else { return }
        if let kept {
            workingPage?.stop()
            workingPage = nil
            leaveUndoPage()
            let result = ResultPage.kept(
                kept, close: { [weak self] in self?.close() }, tell: { [weak self] sentence in self?.window?.toast(sentence) })
            window.show(result.widget, title: held?.title ?? windowTitle, subtitle: "Stopped")
            page = .result
            result.focus()
        } else if let held {
            show(held.outcome, title: held.title)
        }
    }

    // MARK: Steps

    private var workingPage: WorkingPage?
    private var formPage: FormPage?
    /// The activity's own page, while it shows in place of the form.
    private var designedPage: (any DesignedPage)?

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

    /// Picks a suggestion as an activity is picked: the working page first, then what the
    /// controller does with the suggestion's presets, its form filled ("Mail to Ana": To is
    /// ana's address) or, when the presets answer all the form would ask, the work itself.
    private func pick(_ suggestion: ActivitySuggestion, controller: ActivityViewController) {
        guard page == .sheet,
            let activity = controller.sheet.activities.first(where: { $0.activityType == suggestion.activityType })
        else { return }
        showWorking(activity, controller: controller)
        if !controller.select(suggestion), page == .working {
            workingPage?.stop()
            workingPage = nil
            window?.toast("\(suggestion.title) cannot be picked now")
            present(sheet: controller.sheet, controller: controller)
        }
    }

    private func showWorking(_ activity: Activity, controller: ActivityViewController) {
        guard let window else { return }
        let working = WorkingPage(
            activity: activity, running: { [weak controller] in controller?.runningActivity },
            cancel: { [weak self, weak controller] in self?.stopSending(controller) })
        window.show(working.widget, title: activity.activityTitle ?? windowTitle, subtitle: nil)
        workingPage = working
        page = .working
        working.onWaiting = { [weak self, weak controller] work, undoable in
            guard let self, let controller else { return }
            self.showUndo(work, of: undoable, activity: activity, controller: controller)
        }
        working.start()
    }

    /// The send waits to be undone: say where it goes and when, with Undo and Send Now. When
    /// the wait ends without Undo, the send's progress shows again.
    private func showUndo(
        _ work: WaitingWork, of undoable: any UndoableActivity, activity: Activity, controller: ActivityViewController
    ) {
        guard let window else { return }
        workingPage?.stop()
        workingPage = nil
        let undoPage = UndoPage(
            work: work, ended: { [weak undoable] in undoable?.waitingWork == nil },
            undo: { [weak self, weak undoable] in
                guard let undoable, undoable.undo() else { return }
                self?.undoPage?.showTakingBack()
            },
            sendNow: { [weak self] in self?.sendNow() },
            onEnded: { [weak self, weak controller] in
                guard let self, let controller, self.page == .undo else { return }
                self.leaveUndoPage()
                self.showWorking(activity, controller: controller)
            })
        window.show(undoPage.widget, title: activity.activityTitle ?? windowTitle, subtitle: nil)
        self.undoPage = undoPage
        waitingActivity = undoable
        page = .undo
        undoPage.start()
        undoPage.focus()
    }

    /// Send Now, or the window closed while the send waits: it goes at once, with its progress.
    private func sendNow() {
        guard page == .undo, let undoable = waitingActivity, let controller = presented,
            let activity = undoable as? Activity ?? controller.runningActivity
        else { return }
        leaveUndoPage()
        undoable.proceedNow()
        showWorking(activity, controller: controller)
    }

    private func leaveUndoPage() {
        undoPage?.stop()
        undoPage = nil
        waitingActivity = nil
    }

    /// The activity the person stopped while it was sending (Escape or Cancel on the working
    /// page), so its ending says what became of the work instead of the window just closing.
    private var stoppedSend: String?

    /// Cancels the share from the working page, keeping what the activity can keep.
    private func stopSending(_ controller: ActivityViewController?) {
        guard let controller else { return }
        if case .performing = controller.phase {
            stoppedSend = controller.runningActivity?.activityTitle ?? "The share"
        }
        controller.dismissKeepingWork()
    }

    /// Escape or the window's close button: leave the step the person is in.
    private func leave(controller: ActivityViewController?) {
        switch page {
        case .none:
            close()
        case .working:
            if let controller, controller.phase != .idle { stopSending(controller) } else if heldOutcome == nil { close() }
        case .sheet:
            if let controller, controller.phase != .idle { controller.dismissKeepingWork() } else if heldOutcome == nil { close() }
        case .form:
            formPage?.cancel()
            designedPage?.cancel()
        case .result:
            close()
        case .need:
            needPage?.giveUp()
        case .undo:
            // The person is done with the window: the message goes now (see `UndoPage`).
            sendNow()
        }
    }

    // MARK: The window

    private func makeWindow() -> Window {
        let window = Window(title: windowTitle)
        window.onLeave = { [weak self] in self?.leave(controller: self?.presented) }
        // Escape closes a list of completions under a field before it leaves the form.
        window.closesOpenList = { [weak self] in self?.page == .form && self?.formPage?.closeOpenList() == true }
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
        settingsWindow?.close()
        settingsWindow = nil
        window.destroy()
    }

    private func windowWasDestroyed() {
        isClosed = true
        window = nil
        retryWaiter?.resume(returning: false)
        retryWaiter = nil
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

/// Whether the sheet a presentation showed has been left (for work started after it is drawn).
@MainActor
private final class SheetShowing {
    var left = false
}
