import CGtk
import Foundation
import ShareSheet

/// The page of a send held back for a few seconds (Mail's Undo Send): where it goes and in how
/// many seconds, with Undo (focused, so Enter takes it back) and Send Now.
///
/// Closing the window here sends the message at once, as quitting Apple Mail does during its
/// Undo Send delay: the person confirmed it and is done with the window, and a message nobody
/// can see waiting must not stay behind silently. The page says so.
@MainActor
final class UndoPage {
    let widget: Widget

    private let work: WaitingWork
    private let headline: Widget
    private let undoButton: Widget
    private let sendNowButton: Widget
    private let ended: () -> Bool
    private let onEnded: @MainActor () -> Void
    private var timer: UInt32?

    /// - Parameters:
    ///   - work: what waits, where it goes, until when.
    ///   - ended: true once the wait is over (the deadline passed and the send began).
    ///   - undo: the person pressed Undo.
    ///   - sendNow: the person pressed Send Now.
    ///   - onEnded: the wait ended without Undo: the page should leave for the send's progress.
    init(
        work: WaitingWork, ended: @escaping () -> Bool, undo: @escaping @MainActor () -> Void,
        sendNow: @escaping @MainActor () -> Void, onEnded: @escaping @MainActor () -> Void
    ) {
        self.work = work
        self.ended = ended
        self.onEnded = onEnded
        let page = Widgets.vertical(spacing: 12)
        Widgets.margins(page, 18)
        gtk_widget_set_valign(page, GTK_ALIGN_CENTER)
        Widgets.append(page, Widgets.themedIcon("mail-send", size: 48))
        headline = Widgets.label(Self.sentence(for: work, now: Date()), classes: ["title-4"], wraps: true, centered: true)
        Widgets.append(page, headline)
        Widgets.append(
            page,
            Widgets.label(
                "Undo brings \(work.what) back to change it. Closing this window sends it now.", classes: ["dim-label"],
                wraps: true, centered: true))
        undoButton = Widgets.button("Undo", classes: ["suggested-action"], action: undo)
        sendNowButton = Widgets.button("Send Now", action: sendNow)
        let buttons = Widgets.horizontal(spacing: 8)
        gtk_widget_set_halign(buttons, GTK_ALIGN_CENTER)
        Widgets.append(buttons, sendNowButton, undoButton)
        Widgets.append(page, buttons)
        widget = page
    }

    /// "Sending to ana@example.com in 10 s": who receives it and how long it still waits.
    static func sentence(for work: WaitingWork, now: Date) -> String {
        let to: String
        switch work.destinations.count {
        case 0: to = ""
        case 1: to = " to \(work.destinations[0])"
        case 2: to = " to \(work.destinations[0]) and \(work.destinations[1])"
        default: to = " to \(work.destinations[0]) and \(work.destinations.count - 1) others"
        }
        let seconds = Int(max(0, work.deadline.timeIntervalSince(now)).rounded(.up))
        return seconds > 0 ? "Sending\(to) in \(seconds) s" : "Sending\(to) now"
    }

    /// Counts down, and leaves when the wait is over.
    func start() {
        guard timer == nil else { return }
        timer = Signals.every(milliseconds: 200) { [weak self] in
            guard let self, self.timer != nil else { return false }
            if self.ended() {
                self.stop()
                self.onEnded()
                return false
            }
            Widgets.setText(self.headline, Self.sentence(for: self.work, now: Date()))
            return true
        }
    }

    /// Stops counting (the page is leaving).
    func stop() {
        if let timer { g_source_remove(timer) }
        timer = nil
    }

    /// Undo was accepted: the message is being taken out of the outbox.
    func showTakingBack() {
        stop()
        Widgets.setText(headline, "Not sending it")
        gtk_widget_set_sensitive(undoButton, 0)
        gtk_widget_set_sensitive(sendNowButton, 0)
    }

    func focus() { gtk_widget_grab_focus(undoButton) }
}
