import Foundation

/// An item produced off the main actor only after the person picks an activity: the
/// UIActivityItemProvider equivalent.
///
/// Subclass it and override `item` (it runs on a background thread and may block), or use the
/// closure form `ActivityItemProvider(placeholder:) { activityType, progress in … }`. Either way
/// `activityType` is set before the work starts, `isCancelled` turns true when the sheet is
/// dismissed or the work is no longer wanted, and `progress` is shown by every presenter.
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
        var isCancelled = false
        var providedItem: Any?
        /// True when the last run produced its item without being cancelled first.
        var finished = false
    }

    /// Makes a provider whose real item comes from an overridden `item`.
    /// - Parameter placeholderItem: a value of the same kind as the real item.
    public init(placeholderItem: Any) {
        self.placeholderItem = placeholderItem
        progress = Progress(totalUnitCount: -1)
        work = .operation
        super.init()
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
    }

    /// The activity the item is for; nil until the person picks one.
    public var activityType: ActivityType? { run.withLock { $0.activityType } }

    /// The real item. Override it: it runs on a background thread, never on the main actor, and
    /// may block. The default returns the placeholder.
    open var item: Any { placeholderItem ?? NSNull() }

    /// Produces the item; UIKit's `Operation` entry point. Calls `item`.
    open override func main() {
        let produced = item
        run.withLock { $0.providedItem = produced }
    }

    /// True once the work is no longer wanted (the sheet was dismissed).
    open override var isCancelled: Bool { run.withLock { $0.isCancelled } }

    /// Tells the provider its work is no longer wanted.
    open override func cancel() {
        run.withLock { $0.isCancelled = true }
        super.cancel()
    }

    /// The item the last run produced.
    var providedItem: Any? { run.withLock { $0.providedItem } }

    /// Sets the chosen type, before any provider of the sheet runs.
    func setActivityType(_ type: ActivityType) {
        run.withLock { $0.activityType = type }
    }

    /// Readies a run for `type`: the type is set and the cancellation of any earlier run
    /// cleared. Called on the main actor at the pick, before the run is scheduled, so that a
    /// dismissal arriving before the run starts is not forgotten.
    func prepareRun(for type: ActivityType) {
        run.withLock {
            $0.activityType = type
            $0.isCancelled = false
            $0.providedItem = nil
            $0.finished = false
        }
    }

    /// True when the last run produced its item before any cancellation: finished work that a
    /// later dismissal must not throw away.
    var finishedRun: Bool { run.withLock { $0.finished } }

    private func markFinished(evenIfCancelled: Bool) {
        run.withLock { $0.finished = evenIfCancelled || !$0.isCancelled }
    }

    /// Produces the item for `type` off the main actor, after `prepareRun(for:)`; throws when
    /// the body threw. A run cancelled before it starts does no work.
    func produce(for type: ActivityType) async throws -> Any? {
        if isCancelled { throw CancellationError() }
        switch work {
        case .operation:
            // A thread of its own: `item` may block, and must not hold a thread of the
            // cooperative pool while it does.
            return await withCheckedContinuation { continuation in
                let thread = Thread { [self] in
                    main()
                    // `item` returns something even when it gave up, so only an uncancelled
                    // run counts as finished.
                    markFinished(evenIfCancelled: false)
                    continuation.resume(returning: providedItem)
                }
                thread.name = "ShareSheet provider"
                thread.start()
            }
        case .closure(let body):
            let produced = try await withTaskCancellationHandler {
                try await body(type, progress)
            } onCancel: { [self] in
                run.withLock { $0.isCancelled = true }
            }
            run.withLock { $0.providedItem = produced }
            // A body that returned instead of throwing finished its work, even if the
            // dismissal came in the moment after (a FileProvider's file is already in place).
            markFinished(evenIfCancelled: true)
            return produced
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
