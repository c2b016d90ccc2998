// Undo for mail (SPEC §14): a message waits `[mail] undo-seconds` in the outbox before it goes
// (10 s where the presenter offers Undo, none elsewhere), and undo() takes it out unsent. The
// Mail activity in the sheet's pipeline, against aiosmtpd; the command end to end.
import Foundation
import LocalTestSupport
import Mail
import ShareSheet
import Testing

/// Picks Mail and sends the form with `values`, as a window would, and says it offers Undo.
@MainActor
private final class UndoOfferingPresenter: Presenter {
    let values: InterfaceValues
    init(values: InterfaceValues) { self.values = values }
    var offersUndo: Bool { true }
    func present(sheet: ActivitySheet, controller: ActivityViewController) { controller.select(.mail) }
    func present(interface: ActivityInterface, for activity: Activity, controller: ActivityViewController) {
        var filled = values
        for field in interface.fields where filled[field.id] == nil { filled[field.id] = field.defaultValue }
        controller.submitInterface(filled)
    }
}

@MainActor
@Suite("Undo for mail")
struct MailUndoTests {
    private let values: InterfaceValues = ["to": .list(["bo@example.com"]), "subject": .text("Minutes")]

    /// A Mail activity sending to `port` with `undoSeconds` from its settings, and its controller.
    private func mail(port: Int, home: TestHome, undoSeconds: Int? = nil) -> (MailActivity, ActivityViewController) {
        let registry = ActivityRegistry()
        let outbox = MailOutbox(folder: home.outbox)
        let activity = MailActivity(descriptor: registry.descriptor(for: .mail)!) { _ in
            var settings = MailSettings(outbox: outbox)
            settings.smtp = URL(string: "smtp://127.0.0.1:\(port)")
            settings.startTLS = .off
            settings.from = "ana@example.org"
            settings.undoSeconds = undoSeconds
            return settings
        }
        registry.install(.mail) { activity }
        return (activity, ActivityViewController(activityItems: ["See you at six."], applicationActivities: nil, registry: registry))
    }

    /// Waits up to 10 s for the activity to hold its message back.
    private func waitingWork(of activity: MailActivity) async throws -> WaitingWork {
        for _ in 0..<200 {
            if let work = activity.waitingWork { return work }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw PeerError("the message was never held back to be undone")
    }

    @Test("a presenter without Undo (the command, a script): undo-seconds unset sends at once, never held")
    func noUndoOfferedSendsAtOnce() async throws {
        let home = try TestHome()
        let peer = try SMTPPeer(in: home.folder)
        defer { peer.stop() }
        let (activity, controller) = mail(port: peer.port, home: home)
        controller.present(with: ScriptedPresenter(pick: .mail, values: values))
        #expect(activity.waitingWork == nil)
        let outcome = await controller.waitForCompletion()
        #expect(outcome.completed, "\(String(describing: outcome.error))")
        #expect(peer.received.count == 1)
        #expect(home.outboxFiles("new").isEmpty && home.outboxFiles("sending").isEmpty)
    }

    @Test("where Undo is offered the message waits 10 s in the outbox; undo() takes it out, never sent")
    func undoTakesItOut() async throws {
        let home = try TestHome()
        let peer = try SMTPPeer(in: home.folder)
        defer { peer.stop() }
        let (activity, controller) = mail(port: peer.port, home: home)
        controller.present(with: UndoOfferingPresenter(values: values))
        let work = try await waitingWork(of: activity)
        #expect(work.destinations == ["bo@example.com"])
        #expect(abs(work.deadline.timeIntervalSinceNow - 10) < 2, "the window's default: \(work.deadline.timeIntervalSinceNow)")
        #expect(home.outboxFiles("new").count == 1, "safe in the outbox during the wait")
        #expect(activity.undo())
        let outcome = await controller.waitForCompletion()
        #expect((outcome.error as? ShareError)?.kind == .cancelled)
        #expect(activity.wasUndone)
        #expect(home.outboxFiles("new").isEmpty && home.outboxFiles("sending").isEmpty)
        #expect(peer.received.isEmpty)
        #expect(!activity.undo(), "nothing is left to undo")
    }

    @Test("undo-seconds=1: the message waits, then goes once, and leaves the outbox")
    func sentAfterTheWait() async throws {
        let home = try TestHome()
        let peer = try SMTPPeer(in: home.folder)
        defer { peer.stop() }
        let (activity, controller) = mail(port: peer.port, home: home, undoSeconds: 1)
        let started = Date()
        controller.present(with: UndoOfferingPresenter(values: values))
        _ = try await waitingWork(of: activity)
        #expect(peer.received.isEmpty)
        let outcome = await controller.waitForCompletion()
        #expect(outcome.completed, "\(String(describing: outcome.error))")
        #expect(Date().timeIntervalSince(started) >= 1)
        #expect(peer.received.count == 1)
        #expect(!activity.wasUndone)
        #expect(home.outboxFiles("new").isEmpty && home.outboxFiles("sending").isEmpty)
    }

    @Test("proceedNow() ends the wait: sent at once")
    func sendNow() async throws {
        let home = try TestHome()
        let peer = try SMTPPeer(in: home.folder)
        defer { peer.stop() }
        let (activity, controller) = mail(port: peer.port, home: home, undoSeconds: 60)
        controller.present(with: UndoOfferingPresenter(values: values))
        _ = try await waitingWork(of: activity)
        activity.proceedNow()
        let outcome = await controller.waitForCompletion()
        #expect(outcome.completed, "\(String(describing: outcome.error))")
        #expect(peer.received.count == 1)
    }

    @Test("interrupted during the wait (Ctrl-C, Cancel): the message stays queued, kept, never sent")
    func interruptKeepsItQueued() async throws {
        let home = try TestHome()
        let peer = try SMTPPeer(in: home.folder)
        defer { peer.stop() }
        let (activity, controller) = mail(port: peer.port, home: home, undoSeconds: 60)
        controller.present(with: UndoOfferingPresenter(values: values))
        _ = try await waitingWork(of: activity)
        controller.dismissKeepingWork()
        let kept = await activity.keptWork()
        #expect(kept?.resume == .outbox)
        #expect(home.outboxFiles("new").count == 1, "flush sends it")
        #expect(peer.received.isEmpty)
    }

    @Test("undo-seconds that is not a number: one line naming the key, nothing sent or queued")
    func notANumber() throws {
        let home = try TestHome()
        try home.configure("[mail]\nsmtp=smtp://127.0.0.1:9\nstarttls=off\nundo-seconds=soon\n")
        let run = try Run.share(["--activity", "mail", "--to", "bo@example.com", "--text", "hi"], home: home)
        #expect(run.status == 78, "\(run)")
        #expect(run.standardError.split(separator: "\n").count == 1, "\(run)")
        #expect(run.standardError.contains("[mail] undo-seconds=soon: not a number of seconds"), "\(run)")
        #expect(home.outboxFiles("new").isEmpty)
    }

    @Test("the command: unset, the message goes at once; set, it waits that long first, then goes")
    func theCommand() throws {
        let home = try TestHome()
        let peer = try SMTPPeer(in: home.folder)
        defer { peer.stop() }
        try home.configure("[mail]\nsmtp=smtp://127.0.0.1:\(peer.port)\nstarttls=off\nfrom=ana@example.org\n")
        let arguments = ["--activity", "mail", "--to", "bo@example.com", "--text", "hi", "--verbose"]
        let atOnce = try Run.share(arguments, home: home)
        #expect(atOnce.status == 0, "\(atOnce)")
        #expect(!atOnce.standardError.contains("holding"), "\(atOnce)")
        #expect(peer.received.count == 1)

        try home.configure("[mail]\nsmtp=smtp://127.0.0.1:\(peer.port)\nstarttls=off\nfrom=ana@example.org\nundo-seconds=1\n")
        let held = try Run.share(arguments, home: home)
        #expect(held.status == 0, "\(held)")
        #expect(held.standardError.contains("in the outbox for 1 s before sending it"), "\(held)")
        #expect(peer.received.count == 2)
        #expect(home.outboxFiles("new").isEmpty)
    }
}
