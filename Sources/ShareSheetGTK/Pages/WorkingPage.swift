import CGtk
import Foundation
import ShareSheet

/// What the window shows while items are produced and the activity works: one progress bar per
/// running provider, the activity's own progress (print pages, upload bytes), and Cancel.
///
/// `Progress` has no observers on Linux, so the bars are read ten times a second while the page
/// is shown, on the main loop; the work itself runs elsewhere and never waits for the window.
@MainActor
final class WorkingPage {
    let widget: Widget

    private let activity: Activity
    private let providerList: Widget
    private let activityBar: Widget
    private var providerBars: [(progress: Progress, bar: Widget)] = []
    private var timer: UInt32?
    private var cancelled = false

    /// The activity that really runs, once it does: a prototype on the sheet (a share target)
    /// makes a fresh one when picked, whose progress is the one that moves.
    private let running: () -> Activity?

    /// Told once when the running activity holds its work back to be undone (Mail's Undo
    /// Send): the presenter shows the Undo page instead. Read with the progress, as it has no
    /// observers either.
    var onWaiting: (@MainActor (WaitingWork, UndoableActivity) -> Void)?

    init(activity: Activity, running: @escaping () -> Activity? = { nil }, cancel: @escaping @MainActor () -> Void) {
        self.activity = activity
        self.running = running
        let title = activity.activityTitle ?? "the activity"
        let page = Widgets.vertical(spacing: 12)
        Widgets.margins(page, 18)
        gtk_widget_set_valign(page, GTK_ALIGN_CENTER)
        providerList = Widgets.vertical(spacing: 8)
        activityBar = gtk_progress_bar_new()
        gtk_progress_bar_set_show_text(cg_progress(activityBar), 1)
        gtk_progress_bar_set_text(cg_progress(activityBar), "Sharing with \(title)…")
        cg_set_accessible_label(activityBar, "Sharing with \(title)")
        let cancelAction = ActionRelay()
        let cancelButton = Widgets.button("Cancel") { cancelAction.run() }
        gtk_widget_set_halign(cancelButton, GTK_ALIGN_CENTER)
        Widgets.append(page, providerList, activityBar, cancelButton)
        widget = page
        cancelAction.action = { [weak self] in
            guard let self, !self.cancelled else { return }
            self.cancelled = true
            gtk_widget_set_sensitive(cancelButton, 0)
            cancel()
        }
    }

    /// Shows a bar per running provider ("Preparing recipe.pdf…"); an empty list removes them.
    func showProviders(_ providers: [ProviderProgress]) {
        Widgets.removeChildren(providerList)
        providerBars = providers.map { provider in
            let bar = gtk_progress_bar_new()!
            gtk_progress_bar_set_show_text(cg_progress(bar), 1)
            gtk_progress_bar_set_text(cg_progress(bar), "Preparing \(provider.name)…")
            cg_set_accessible_label(bar, "Preparing \(provider.name)")
            Widgets.append(providerList, bar)
            return (provider.progress, bar)
        }
        Widgets.show(activityBar, providers.isEmpty)
        update()
    }

    /// Starts reading the progress.
    func start() {
        guard timer == nil else { return }
        update()
        timer = Signals.every(milliseconds: 100) { [weak self] in
            guard let self, self.timer != nil else { return false }
            self.update()
            return true
        }
    }

    /// Says the work is winding down (a cancel waits for what was finished to be counted).
    func showStopping() {
        stop()
        gtk_progress_bar_set_text(cg_progress(activityBar), "Stopping…")
    }

    /// Stops reading the progress (the page is leaving).
    func stop() {
        if let timer { g_source_remove(timer) }
        timer = nil
    }

    private func update() {
        for (progress, bar) in providerBars { Self.draw(progress, on: bar) }
        let current = running() ?? activity
        Self.draw(current.progress, on: activityBar)
        if let onWaiting, let undoable = current as? UndoableActivity, let work = undoable.waitingWork {
            self.onWaiting = nil
            onWaiting(work, undoable)
        }
    }

    /// A known fraction fills the bar; an unknown one makes it pulse.
    private static func draw(_ progress: Progress, on bar: Widget) {
        if progress.totalUnitCount > 0 {
            gtk_progress_bar_set_fraction(cg_progress(bar), min(1, max(0, progress.fractionCompleted)))
        } else {
            gtk_progress_bar_pulse(cg_progress(bar))
        }
    }
}
