import Foundation
import ShareSheet

/// An item source that records each call it receives (and on which thread) in a `CallLog`.
public final class RecordingItemSource: ActivityItemSource {
    /// A name used in the log: "placeholder(NAME)".
    public let name: String
    /// What the placeholder is.
    public var placeholder: Any
    /// The item per activity type; nil drops the item.
    public var itemForType: (ActivityType?) -> Any?
    /// The subject per activity type.
    public var subject: String
    /// The data type identifier given for every type (nil and the chosen one).
    public var dataTypeIdentifier: String
    /// The preview image given when asked for a thumbnail.
    public var thumbnail: Image?
    /// Where calls are recorded.
    public let log: CallLog

    /// Makes a recording source.
    public init(
        name: String, placeholder: Any, log: CallLog, subject: String = "", dataTypeIdentifier: String = "",
        item: @escaping (ActivityType?) -> Any?
    ) {
        self.name = name
        self.placeholder = placeholder
        self.log = log
        self.subject = subject
        self.dataTypeIdentifier = dataTypeIdentifier
        itemForType = item
    }

    public func activityViewControllerPlaceholderItem(_ activityViewController: ActivityViewController) -> Any {
        log.record("placeholder(\(name))")
        return placeholder
    }

    public func activityViewController(
        _ activityViewController: ActivityViewController, itemForActivityType activityType: ActivityType?
    ) -> Any? {
        log.record("item(\(name), \(activityType?.rawValue ?? "nil"))")
        return itemForType(activityType)
    }

    public func activityViewController(
        _ activityViewController: ActivityViewController, subjectForActivityType activityType: ActivityType?
    ) -> String {
        log.record("subject(\(name), \(activityType?.rawValue ?? "nil"))")
        return subject
    }

    public func activityViewController(
        _ activityViewController: ActivityViewController, dataTypeIdentifierForActivityType activityType: ActivityType?
    ) -> String {
        log.record("dataType(\(name), \(activityType?.rawValue ?? "nil"))")
        return dataTypeIdentifier
    }

    public func activityViewController(
        _ activityViewController: ActivityViewController, thumbnailImageForActivityType activityType: ActivityType?,
        suggestedSize size: CGSize
    ) -> Image? {
        log.record("thumbnail(\(name), \(activityType?.rawValue ?? "nil"), \(Int(size.width))x\(Int(size.height)))")
        return thumbnail
    }
}

/// A provider that works for a set time in small steps, checking `isCancelled` between them,
/// and records when it started, on which thread, for which type, and when it saw cancellation.
public final class SleepingProvider: ActivityItemProvider, @unchecked Sendable {
    /// A name used in the log: "run(NAME)".
    public let label: String
    /// How long the work takes when not cancelled.
    public let duration: Duration
    /// What the provider produces.
    public let result: Any?
    /// Where calls are recorded.
    public let log: CallLog
    private let observed = Locked<(type: ActivityType?, cancelledAt: Date?, runs: Int)>((nil, nil, 0))

    /// Makes a provider that takes `duration` to produce `result`.
    public init(name: String, placeholder: Any, result: Any?, duration: Duration, log: CallLog) {
        label = name
        self.duration = duration
        self.result = result
        self.log = log
        super.init(placeholderItem: placeholder)
    }

    /// The activity type the provider saw when its work began.
    public var typeSeenAtStart: ActivityType? { observed.withLock { $0.type } }
    /// When the provider noticed it was cancelled; nil when it never was.
    public var observedCancellationAt: Date? { observed.withLock { $0.cancelledAt } }
    /// How many times the work ran.
    public var runCount: Int { observed.withLock { $0.runs } }

    public override var item: Any {
        let type = activityType
        observed.withLock {
            $0.type = type
            $0.runs += 1
        }
        log.record("run(\(label))")
        let end = Date().addingTimeInterval(duration.seconds)
        progress.totalUnitCount = 100
        while Date() < end {
            if isCancelled {
                observed.withLock { $0.cancelledAt = Date() }
                log.record("cancelled(\(label))")
                return NSNull()
            }
            Thread.sleep(forTimeInterval: 0.002)
        }
        log.record("done(\(label))")
        return result ?? NSNull()
    }
}
