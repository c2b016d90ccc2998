import ShareSheet

extension TerminalPresenter {
    /// Ctrl-C while an activity runs: one that can keep its work (a mail being sent stays in
    /// the outbox) is told to before the dismissal cancels it.
    func keepWork(of controller: ActivityViewController?) {
        guard interruptedActivity == nil, let activity = controller?.runningActivity as? InterruptibleActivity else { return }
        activity.keepWorkWhenCancelled()
        interruptedActivity = activity
    }
}
