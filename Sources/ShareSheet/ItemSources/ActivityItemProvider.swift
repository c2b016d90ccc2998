import Foundation

/// An item produced off the main actor only after the person picks an activity: the
/// UIActivityItemProvider equivalent.
///
/// Subclass it and override `item` (it runs on a background thread and may block), or use the
/// closure form `ActivityItemProvider(placeholder:) { activityType, progress in … }`. Either way
/// `activityType` is set before the work starts, `isCancelled` turns true when the sheet is
/// dismissed or the work is no longer wanted, and `progress` is shown by every presenter.
///
/// It is a real `Operation`: after the pick the controller adds it to an `OperationQueue` of its
/// own, so `isExecuting`, `isFinished`, `completionBlock` and dependencies on other operations
/// (providers or not) behave as Foundation documents. `start()` returns at once: the work runs
/// on a thread of its own (the subclass form, whose `item` may block) or as a task (the closure
/// form), so `isAsynchronous` is true.
///
/// An `Operation` runs once. When the controller needs the item again — a later presentation
/// after this run was cancelled, or a pick of another activity type — it runs the same work in
/// a fresh internal operation: `item` (or the closure) is evaluated again with `isCancelled`
/// false and the new `activityType`; that operation depends on the same operations as the
/// provider (another provider's own re-run when it re-runs too); the provider stays finished
/// and its `completionBlock` is not called again. Finished work is reused, never re-run, for
/// the same activity type.
///
/// Swift 6 asks subclasses of `Operation` to restate `@unchecked Sendable`, as on Apple platforms.
open class ActivityItemProvider: Operation, @unchecked Sendable {
    /// What stands in for the item while the sheet is built; only its kind counts.
    public let placeholderItem: Any?
    /// Progress of the work, updated by the provider and shown by presenters. Beyond UIKit.
    public let progress: Progress
    let work: Work
    private let run = Locked(RunState())

    enum Work {
        /// The UIKit form: `main()` evaluates `item` on a thread of its own.
        case operation
        /// The closure form: an async body run as a task.
        case closure(@Sendable (ActivityType, Progress) async throws -> Any?)
    }

    struct RunState {
        var activityType: ActivityType?
        /// The current run's cancellation.
        var isCancelled = false
        var providedItem: Any?
        /// What the closure form threw in the current run.
        var failure: (any Error)?
        /// True when the last run produced its item without being cancelled first.
        var finished = false
        /// The closure form's running task.
        var task: Task<Void, Never>?
        /// The operation of the latest run: the provider itself, or a re-run.
        var latestRun: Operation?
        /// Told once when the provider's own run is over, after its completion block.
        var onOwnRunEnded: (@Sendable (ProviderRunResult) -> Void)?
        /// What the provider's own run produced, kept apart from later runs.
        var ownRunResult: ProviderRunResult?
        /// True once the provider itself was handed to a queue: later runs use a fresh operation.
        var wasEnqueued = false
        /// The provider's own `Operation` life: executing, then finished.
        var isExecuting = false
        var isFinished = false
        /// The completion block the application set.
        var completionBlock: (@Sendable () -> Void)?
    }

    /// Makes a provider whose real item comes from an overridden `item`.
    /// - Parameter placeholderItem: a value of the same kind as the real item.
    public init(placeholderItem: Any) {
        self.placeholderItem = placeholderItem
        progress = Progress(totalUnitCount: -1)
        work = .operation
        super.init()
        installCompletionRelay()
    }

    /// Makes a provider whose real item comes from an async closure, given the chosen activity
    /// type and a progress to update. Returning nil leaves the item out; throwing fails the share.
    public init(
        placeholder: Any, _ body: @escaping @Sendable (ActivityType, Progress) async throws -> Any?
    ) {
        placeholderItem = placeholder
        progress = Progress(totalUnitCount: -1)
        work = .closure(body)
        super.init()
        installCompletionRelay()
    }

    /// The activity the item is for; nil until the person picks one.
    public var activityType: ActivityType? { run.withLock { $0.activityType } }

    /// The real item. Override it: it runs on a background thread, never on the main actor, and
    /// may block. The default has nothing to give: it returns `NSNull`, which leaves the item out
    /// (never the placeholder, which is only a stand-in).
    open var item: Any { NSNull() }

    /// Produces the item; UIKit's `Operation` entry point. Calls `item`.
    open override func main() {
        let produced = item
        run.withLock { $0.providedItem = produced }
    }

    // MARK: Operation

    /// True: `start()` hands the work to a thread (or task) of its own and returns.
    open override var isAsynchronous: Bool { true }

    /// True while the provider's own run works.
    open override var isExecuting: Bool { run.withLock { $0.isExecuting } }

    /// True once the provider's own run is over, finished or cancelled.
    open override var isFinished: Bool { run.withLock { $0.isFinished } }

    /// Runs when the provider's own operation finishes, as Foundation documents (on a background
    /// thread). The controller waits for it before the share goes on.
    open override var completionBlock: (@Sendable () -> Void)? {
        get { run.withLock { $0.completionBlock } }
        set { run.withLock { $0.completionBlock = newValue } }
    }

    /// Starts the work on a thread (or task) of its own and returns; does nothing but finish when
    /// the provider was cancelled first.
    open override func start() {
        enum Start { case ignore, finishAtOnce, launch }
        let decision = run.withLock { state -> Start in
            guard !state.isExecuting, !state.isFinished else { return .ignore }
            state.wasEnqueued = true
            if state.isCancelled { return .finishAtOnce }
            state.isExecuting = true
            return .launch
        }
        switch decision {
        case .ignore:
            return
        case .finishAtOnce:
            finishOwnRun()
        case .launch:
            didChangeValue(forKey: "isExecuting")
            launchWork { [self] in finishOwnRun() }
        }
    }

    private func finishOwnRun() {
        run.withLock {
            $0.ownRunResult = $0.result
            $0.isExecuting = false
            $0.isFinished = true
        }
        didChangeValue(forKey: "isExecuting")
        // Foundation readies the dependents and schedules the completion relay.
        didChangeValue(forKey: "isFinished")
    }

    /// Foundation runs the block it holds once the operation finished: the relay calls the
    /// application's block, then tells the controller the run is over.
    private func installCompletionRelay() {
        super.completionBlock = { [weak self] in
            guard let self else { return }
            let block = run.withLock { $0.completionBlock }
            block?()
            let (ended, result) = run.withLock { state in
                defer { state.onOwnRunEnded = nil }
                return (state.onOwnRunEnded, state.ownRunResult ?? ProviderRunResult())
            }
            ended?(result)
        }
    }

    /// True once the work is no longer wanted (the sheet was dismissed).
    open override var isCancelled: Bool { run.withLock { $0.isCancelled } }

    /// Tells the provider its work is no longer wanted.
    open override func cancel() {
        let (task, latest) = run.withLock { state -> (Task<Void, Never>?, Operation?) in
            state.isCancelled = true
            return (state.task, state.latestRun)
        }
        task?.cancel()
        // A re-run that has not started yet must not start.
        if let latest, latest !== self { latest.cancel() }
        super.cancel()
    }

    // MARK: Runs, for the controller

    /// The item the last run produced.
    var providedItem: Any? { run.withLock { $0.providedItem } }

    /// Sets the chosen type, before any provider of the sheet runs.
    func setActivityType(_ type: ActivityType) {
        run.withLock { $0.activityType = type }
    }

    /// Readies a run for `type` and returns the operation to add to the queue: the provider
    /// itself the first time, a fresh internal operation afterwards, which waits for any earlier
    /// run still winding down (their `isCancelled` is the same property). Called on the main
    /// actor at the pick, before the run is scheduled, so that a dismissal arriving before the
    /// run starts is not forgotten. `onEnded` is told once, from another thread, what the run
    /// produced.
    func makeRun(for type: ActivityType, onEnded: @escaping @Sendable (ProviderRunResult) -> Void) -> Operation {
        let previous = run.withLock { state -> Operation? in
            if !state.wasEnqueued && !state.isFinished {
                state.wasEnqueued = true
                state.activityType = type
                state.onOwnRunEnded = onEnded
                state.latestRun = self
                return nil
            }
            return state.latestRun ?? self
        }
        guard let previous else { return self }
        let rerun = ProviderRerun(provider: self, type: type, onEnded: onEnded)
        if !previous.isFinished { rerun.addDependency(previous) }
        run.withLock { $0.latestRun = rerun }
        return rerun
    }

    /// Starts a re-run's work: the run state is fresh, then the work is launched.
    fileprivate func launchRerun(for type: ActivityType, _ done: @escaping @Sendable (ProviderRunResult) -> Void) {
        run.withLock {
            $0.activityType = type
            $0.isCancelled = false
            $0.providedItem = nil
            $0.failure = nil
            $0.finished = false
            $0.task = nil
        }
        launchWork { [self] in done(run.withLock { $0.result }) }
    }

    /// True when the last run produced its item before any cancellation: finished work that a
    /// later dismissal must not throw away.
    var finishedRun: Bool { run.withLock { $0.finished } }

    /// Runs the work once, off the main actor, and calls `done` when it is over.
    func launchWork(_ done: @escaping @Sendable () -> Void) {
        switch work {
        case .operation:
            // A thread of its own: `item` may block, and must hold neither a thread of the
            // cooperative pool nor one of the dispatch pool (which grows slowly on Linux).
            let thread = Thread { [self] in
                main()
                // `item` returns something even when it gave up, so only an uncancelled run
                // counts as finished.
                run.withLock { $0.finished = !$0.isCancelled }
                done()
            }
            thread.name = "ShareSheet provider"
            thread.start()
        case .closure(let body):
            let type = activityType ?? ActivityType("")
            let task = Task.detached { [self] in
                do {
                    let produced = try await body(type, progress)
                    // A body that returned instead of throwing finished its work, even if the
                    // dismissal came in the moment after (a FileProvider's file is in place).
                    run.withLock {
                        $0.providedItem = produced
                        $0.finished = true
                    }
                } catch {
                    run.withLock { $0.failure = error }
                }
                done()
            }
            let cancelled = run.withLock { state -> Bool in
                state.task = task
                return state.isCancelled
            }
            if cancelled { task.cancel() }
        }
    }

    // MARK: ActivityItemSource, in the class so subclasses can override each method.

    /// Returns `placeholderItem`.
    open func activityViewControllerPlaceholderItem(_ activityViewController: ActivityViewController) -> Any {
        placeholderItem ?? NSNull()
    }

    /// Returns the item the provider produced for the chosen activity.
    open func activityViewController(
        _ activityViewController: ActivityViewController, itemForActivityType activityType: ActivityType?
    ) -> Any? { providedItem }

    /// Defaults to "".
    open func activityViewController(
        _ activityViewController: ActivityViewController, subjectForActivityType activityType: ActivityType?
    ) -> String { "" }

    /// Defaults to "".
    open func activityViewController(
        _ activityViewController: ActivityViewController, dataTypeIdentifierForActivityType activityType: ActivityType?
    ) -> String { "" }

    /// Defaults to nil.
    open func activityViewController(
        _ activityViewController: ActivityViewController, thumbnailImageForActivityType activityType: ActivityType?,
        suggestedSize size: CGSize
    ) -> Image? { nil }

    /// Defaults to nil.
    open func activityViewControllerLinkMetadata(_ activityViewController: ActivityViewController) -> LinkMetadata? {
        nil
    }
}

extension ActivityItemProvider: ActivityItemSource {}

/// A later run of a provider whose own operation already ran: the same work in a fresh
/// operation, since an `Operation` cannot run twice.
final class ProviderRerun: Operation, @unchecked Sendable {
    private let provider: ActivityItemProvider
    private let type: ActivityType
    private let onEnded: @Sendable (ProviderRunResult) -> Void
    private let state = Locked((executing: false, finished: false))

    init(provider: ActivityItemProvider, type: ActivityType, onEnded: @escaping @Sendable (ProviderRunResult) -> Void) {
        self.provider = provider
        self.type = type
        self.onEnded = onEnded
        super.init()
        name = "re-run of \(provider.name ?? String(describing: Swift.type(of: provider)))"
    }

    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { state.withLock { $0.executing } }
    override var isFinished: Bool { state.withLock { $0.finished } }

    override func start() {
        let startable = state.withLock { state -> Bool in
            guard !state.executing, !state.finished else { return false }
            state.executing = true
            return true
        }
        guard startable else { return }
        if isCancelled {
            finish(ProviderRunResult())
            return
        }
        didChangeValue(forKey: "isExecuting")
        provider.launchRerun(for: type) { [self] result in finish(result) }
    }

    private func finish(_ result: ProviderRunResult) {
        state.withLock {
            $0.executing = false
            $0.finished = true
        }
        didChangeValue(forKey: "isExecuting")
        didChangeValue(forKey: "isFinished")
        onEnded(result)
    }
}

/// What one run of a provider produced, captured when it ended.
struct ProviderRunResult: @unchecked Sendable {
    /// The item, when the run gave one.
    var item: Any?
    /// True when the run produced its item before any cancellation.
    var finished = false
    /// What the closure form threw.
    var failure: (any Error)?
}

extension ActivityItemProvider.RunState {
    /// The current run's result.
    var result: ProviderRunResult { ProviderRunResult(item: providedItem, finished: finished, failure: failure) }
}
