import Foundation

/// A service the sheet can offer: the UIActivity equivalent. Subclass it to add your own.
///
/// Override `activityType`, `activityTitle`, `activityImage`, `canPerform(withActivityItems:)`,
/// `prepare(withActivityItems:)` and either `perform()` or `activityInterface`. However the work
/// ends, call `activityDidFinish(_:)` exactly once; later calls are ignored.
@MainActor
open class Activity {
    /// Lets `Activity.ActivityType.mail` port unchanged from `UIActivity.ActivityType.mail`.
    public typealias ActivityType = ShareSheet.ActivityType

    /// Which row of the sheet an activity appears in.
    public enum Category: Int, Sendable {
        /// Acts on the items here (copy, save, print): the second row.
        case action = 0
        /// Sends the items somewhere (mail, post): the first row.
        case share = 1
    }

    /// The row this activity appears in. Defaults to `.action`.
    open class var activityCategory: Category { .action }

    /// The row this particular activity appears in. Defaults to the class's `activityCategory`;
    /// beyond UIKit, for activities whose row is decided per instance (the built-ins).
    open var category: Category { Swift.type(of: self).activityCategory }

    /// The type reported to the completion handler and matched by exclusion lists. Defaults to nil.
    open var activityType: ActivityType? { nil }

    /// The localized title under the icon. Defaults to nil.
    open var activityTitle: String? { nil }

    /// The icon; only its alpha channel counts, presenters tint it. Defaults to nil.
    open var activityImage: Image? { nil }

    /// The size of the preview image this activity shows or sends with the items (AirDrop's
    /// LocalSend `preview`, an MMS thumbnail), or nil when it shows none. Beyond UIKit.
    ///
    /// When it is non-nil, the controller asks every item source's
    /// `activityViewController(_:thumbnailImageForActivityType:suggestedSize:)` after the pick,
    /// with this activity's type and this size, and hands the images over in
    /// `context.thumbnails`. Defaults to nil: no source is asked.
    open var thumbnailSize: CGSize? { nil }

    /// Whether the activity can act on these items. Called while the sheet is built, with plain
    /// items and the placeholders of sources, so it must be cheap. Defaults to false.
    open func canPerform(withActivityItems activityItems: [Any]) -> Bool { false }

    /// Why the activity is not offered for these items, or nil when it would be.
    ///
    /// Beyond UIKit: lets a sheet explain a missing activity (`share --explain`).
    open func unavailableReason(forActivityItems activityItems: [Any]) -> String? {
        canPerform(withActivityItems: activityItems) ? nil : "it cannot act on these items"
    }

    /// Why the activity is not offered for these items with what would make it available, or
    /// nil when it would be offered. Beyond UIKit: a sheet asks this, so that a front end can
    /// add its own advice to the reason (SPEC §11).
    ///
    /// Defaults to `unavailableReason(forActivityItems:)` with no fix. An activity that knows a
    /// fix (an account to add) overrides both, its `unavailableReason` returning this `reason`.
    open func unavailability(forActivityItems activityItems: [Any]) -> Unavailability? {
        unavailableReason(forActivityItems: activityItems).map { Unavailability($0) }
    }

    /// Lines that say how the activity would act on these items and why (the applications it
    /// would offer, say), for `share --explain`. Beyond UIKit. Defaults to none.
    open func explanation(forActivityItems activityItems: [Any]) -> [ExplanationLine] { [] }

    /// Where the activity's work goes with the host environment's configuration (an SMTP
    /// server, the outbox, a printer, a PDF), for help pages and `share --explain`. Beyond
    /// UIKit. It reads settings only: it must not connect, discover or write anything.
    /// Defaults to nil: nothing to say.
    open var route: ActivityRoute? { nil }

    /// The fields its interface asks for before any item is given (ids usable as preset keys,
    /// labels, kinds), for help pages. Beyond UIKit. Like `route`, it must start no work (no
    /// discovery, no network). Defaults to none.
    open var declaredFields: [InterfaceField] { [] }

    /// Receives the resolved items in their original order after the pick. Defaults to nothing.
    open func prepare(withActivityItems activityItems: [Any]) {}

    /// The extra input this activity needs. When non-nil the presenter shows it instead of
    /// calling `perform()`. Defaults to nil.
    open var activityInterface: ActivityInterface? { nil }

    /// The keys a caller may preset for this activity (`share --set KEY=…`, the service's
    /// `fields`): the id of every field its interface can show, and the values it reads without
    /// one (Open In's `remember` when the application is already named). A front end that
    /// rejects mistyped keys takes these, the shown interface's fields and the configuration
    /// keys as the known ones, so a field the interface leaves out this time is still known.
    /// Defaults to the ids of `declaredFields`.
    open var presetKeys: Set<String> { Set(declaredFields.map(\.id)) }

    /// Does the work. The default finishes at once with `false`, so a sheet never hangs.
    open func perform() { activityDidFinish(false) }

    /// True when the items go to another machine or person (a mail, a nearby device, a post):
    /// photos then lose their location and camera serial numbers unless the person keeps them
    /// (SPEC §13). Beyond UIKit; false by default.
    open var sendsItemsAway: Bool { false }

    /// True when photos must arrive in a format every receiver reads: HEIC, WebP and AVIF
    /// become JPEG. Beyond UIKit; false by default.
    open var needsWidelyReadImages: Bool { false }

    /// The configuration group whose `image-size=` sets the size photos go at when the person
    /// does not choose (`mail`); nil for none. Beyond UIKit.
    open var imageSizeSettingGroup: String? { nil }

    /// Called when the sheet is dismissed while the activity runs: stop and leave nothing behind.
    /// Defaults to nothing.
    open func cancel() {}

    /// What the activity produced (saved file URLs, a posted status URL…), handed to the
    /// completion handler. Beyond UIKit.
    open var returnedItems: [Any]?

    /// Where the items went (`sent`, `queued`, `saved`…), set by the activity before it
    /// finishes. Beyond UIKit; nil lets the front end say `completed` or `failed` alone.
    open var disposition: ShareDisposition?

    /// Where the items went, when there is one place: a path, a URL or a print job id.
    /// Beyond UIKit.
    open var location: String?

    /// Set when the activity fell back to its embedded default (queued, saved as PDF, opened a
    /// web page): what it did and how to change it. Beyond UIKit.
    open var fallback: ActivityFallback?

    /// The host environment (XDG folders, display, configuration location) the activity must use
    /// instead of the process's own. Set by the registry before the sheet is built; when nothing
    /// sets it, the process's environment as it is on first read.
    public var hostEnvironment: HostEnvironment {
        get {
            if let assignedEnvironment { return assignedEnvironment }
            let process = HostEnvironment.process
            assignedEnvironment = process
            return process
        }
        set { assignedEnvironment = newValue }
    }

    /// Read lazily: copying the process's environment costs tens of microseconds, more than the
    /// rest of making an activity, and the registry replaces it anyway.
    private var assignedEnvironment: HostEnvironment?

    /// What the sheet knows beyond the items: the sources' subject, caller-given values.
    /// Set before `prepare(withActivityItems:)`.
    public internal(set) var context = ActivityContext()

    /// Progress of the activity's own work (pages printed, bytes sent), shown by presenters.
    public nonisolated let progress: Progress = {
        // Not Progress(totalUnitCount:), which looks up Progress.current() to find a parent: an
        // activity's progress has none, and a sheet makes many activities.
        let progress = Progress(parent: nil, userInfo: nil)
        progress.totalUnitCount = -1
        return progress
    }()

    nonisolated let finishing = FinishChannel()

    /// The positions of the items `prepare(withActivityItems:)` receives: all of them for
    /// application activities; built-ins keep only those they accept.
    func usableIndices(from items: [Any]) -> [Int] { Array(items.indices) }

    /// Kinds the sheet computed for the array it is asking about, so built-ins need not
    /// classify the items again; set only while the sheet asks.
    var knownItemKinds: KnownItemKinds?

    /// Makes an activity.
    public nonisolated init() {}

    /// Ends the activity: the sheet is dismissed and the completion handler fires once.
    ///
    /// May be called from any thread. A second call is ignored.
    /// - Parameter completed: true when the service ran to completion; false when it was
    ///   cancelled or failed.
    public nonisolated final func activityDidFinish(_ completed: Bool) {
        finishing.send(completed: completed, error: nil)
    }

    /// Ends the activity with an error, reported to the completion handler. Beyond UIKit.
    public nonisolated final func activityDidFail(_ error: any Error) {
        finishing.send(completed: false, error: error)
    }
}

/// What the sheet tells an activity besides the items.
public struct ActivityContext {
    /// The subject the item sources gave for this activity type, first non-empty one.
    public var subject: String?
    /// Link metadata the sources gave, for previews.
    public var linkMetadata: [LinkMetadata] = []
    /// Values the caller set ahead (the CLI's `--subject`, `--to`, `--set KEY=VALUE`), by field id.
    public var presetValues: InterfaceValues = [:]
    /// The sources' preview images, one per item `prepare(withActivityItems:)` received, in the
    /// same order; nil where an item has none. Asked only when the activity has a
    /// `thumbnailSize`; empty otherwise.
    public var thumbnails: [Image?] = []
    /// True when the presenter can show work an `UndoableActivity` holds back, with an Undo
    /// button (the window); such an activity holds its work back by default only then.
    public var offersUndo = false

    /// Makes an empty context.
    public init(subject: String? = nil, presetValues: InterfaceValues = [:]) {
        self.subject = subject
        self.presetValues = presetValues
    }
}

/// Carries an activity's one finish to whoever presented it, from any thread.
final class FinishChannel: Sendable {
    typealias Receiver = @Sendable (Bool, (any Error)?) -> Void
    private let receiver = Locked<Receiver?>(nil)

    /// Points the channel at a new presentation; the previous receiver no longer hears anything.
    func connect(_ newReceiver: Receiver?) { receiver.withLock { $0 = newReceiver } }

    func send(completed: Bool, error: (any Error)?) {
        // Taking the receiver out makes every later call a no-op.
        let target = receiver.withLock { current -> Receiver? in
            defer { current = nil }
            return current
        }
        target?(completed, error)
    }
}
