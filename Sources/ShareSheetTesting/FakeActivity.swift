import Foundation
import ShareSheet

/// An application activity whose behaviour a test sets, recording every call it receives.
open class FakeActivity: Activity {
    /// How the fake ends after `perform()` or a submitted interface.
    public enum Ending: Sendable {
        /// Finishes at once with this value.
        case finish(Bool)
        /// Finishes with this value after a delay, from a background thread.
        case finishLater(Bool, after: Duration)
        /// Fails with this error.
        case fail(ShareError)
        /// Never finishes by itself (only a dismissal ends it).
        case never
    }

    private let type: ActivityType
    private let title: String
    private let row: Category
    private let accepts: (Any) -> Bool
    /// How the fake ends.
    public var ending: Ending
    /// The interface the fake shows instead of performing, when set.
    public var interface: ActivityInterface?
    /// Items the fake returns to the completion handler.
    public var itemsToReturn: [Any]?
    /// Where calls are recorded.
    public let log: CallLog
    /// The items `canPerform` was last called with.
    public private(set) var canPerformItems: [Any] = []
    /// The items `prepare` was called with.
    public private(set) var preparedItems: [Any]?
    /// The values the interface was submitted with.
    public private(set) var submittedValues: InterfaceValues?
    /// How many times `cancel()` was called.
    public private(set) var cancelCount = 0

    /// Makes a fake activity.
    /// - Parameters:
    ///   - accepts: decides, per item, whether the fake can act on it; defaults to everything.
    public init(
        type: ActivityType, title: String = "Fake", category: Category = .action, log: CallLog = CallLog(),
        ending: Ending = .finish(true), accepts: @escaping (Any) -> Bool = { _ in true }
    ) {
        self.type = type
        self.title = title
        row = category
        self.accepts = accepts
        self.ending = ending
        self.log = log
        super.init()
    }

    open override var activityType: ActivityType? { type }
    open override var activityTitle: String? { title }
    open override var category: Category { row }

    open override func canPerform(withActivityItems activityItems: [Any]) -> Bool {
        log.record("canPerform(\(type.rawValue))")
        canPerformItems = activityItems
        return activityItems.contains(where: accepts)
    }

    open override func prepare(withActivityItems activityItems: [Any]) {
        log.record("prepare(\(type.rawValue))")
        preparedItems = activityItems
    }

    open override var activityInterface: ActivityInterface? {
        guard var interface else { return nil }
        let submit = interface.onSubmit
        interface.onSubmit = { [weak self] values in
            self?.submittedValues = values
            submit(values)
            self?.end()
        }
        return interface
    }

    open override func perform() {
        log.record("perform(\(type.rawValue))")
        end()
    }

    open override func cancel() {
        log.record("cancel(\(type.rawValue))")
        cancelCount += 1
    }

    private func end() {
        returnedItems = itemsToReturn
        switch ending {
        case .finish(let completed):
            activityDidFinish(completed)
        case .finishLater(let completed, let delay):
            Thread.detachNewThread { [self] in
                Thread.sleep(forTimeInterval: delay.seconds)
                activityDidFinish(completed)
            }
        case .fail(let error):
            activityDidFail(error)
        case .never:
            break
        }
    }
}

extension Duration {
    /// The duration in seconds.
    public var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
