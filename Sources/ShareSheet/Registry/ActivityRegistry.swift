/// The built-in activities a sheet can offer, and the backends that make them real.
///
/// Starts with every built-in of SPEC §1.7 and no backend: each is listed as unavailable with
/// the reason until a backend module installs its activity with `install(_:factory:)`.
@MainActor
public final class ActivityRegistry {
    /// The registry sheets use unless given another.
    public static let shared = ActivityRegistry()

    /// Why a built-in without a backend is not offered.
    public static let noBackendReason = "no backend for it is installed in this build yet"

    /// Every built-in, share row first, in table order.
    public private(set) var descriptors: [BuiltInActivityDescriptor]
    private var factories: [ActivityType: () -> BuiltInActivity] = [:]
    /// The host environment every activity made here reads instead of the process's.
    public var environment: HostEnvironment
    /// Activities installed applications add (share targets), or nil for built-ins only.
    public var extensions: (any ActivityExtensionCatalog)?
    /// Makes the preparer of each share's items (photos resized, location removed: SPEC §13),
    /// or nil to send every item as its source gives it. The built-ins module sets it.
    public var itemPreparation: (@MainActor (HostEnvironment) -> any ItemPreparing)?
    /// Sends what a finished share left waiting in the outbox (its `location`), with the
    /// environment's configuration as it is then, or nil when no backend can. The built-ins
    /// module sets it; `ShareHost.sendWaiting` is how front ends reach it.
    public var waitingSender: (@Sendable (HostEnvironment, _ location: String) async throws -> Void)?

    /// Makes a registry of the given built-ins (the catalog by default), none installed, for
    /// the host `environment` (this process's by default).
    public init(
        descriptors: [BuiltInActivityDescriptor] = BuiltInActivityDescriptor.catalog,
        environment: HostEnvironment = .process
    ) {
        self.descriptors = descriptors
        self.environment = environment
    }

    /// Adds a built-in of ShareSheet's own (Open In, Mastodon) at the end of its row.
    public func add(_ descriptor: BuiltInActivityDescriptor) {
        guard !descriptors.contains(where: { $0.type == descriptor.type }) else { return }
        let rowEnd = descriptors.lastIndex { $0.category == descriptor.category }.map { $0 + 1 } ?? descriptors.endIndex
        descriptors.insert(descriptor, at: rowEnd)
    }

    /// Installs the backend of a built-in: `factory` makes a fresh activity for each sheet.
    public func install(_ type: ActivityType, factory: @escaping () -> BuiltInActivity) {
        factories[type] = factory
    }

    /// True when a backend is installed for `type`.
    public func isInstalled(_ type: ActivityType) -> Bool { factories[type] != nil }

    /// The descriptor of a built-in type, or of an extension's.
    public func descriptor(for type: ActivityType) -> BuiltInActivityDescriptor? {
        descriptors.first { $0.type == type } ?? extensionDescriptors.first { $0.type == type }
    }

    /// The descriptor whose CLI name or raw type is `name`: a built-in's, else an extension's.
    public func descriptor(named name: String) -> BuiltInActivityDescriptor? {
        func matches(_ descriptor: BuiltInActivityDescriptor) -> Bool {
            descriptor.name == name || descriptor.type.rawValue == name
        }
        return descriptors.first(where: matches) ?? extensionDescriptors.first(where: matches)
    }

    /// The descriptors of the extensions installed for this registry's environment.
    public var extensionDescriptors: [BuiltInActivityDescriptor] {
        extensions?.descriptors(for: environment) ?? []
    }

    /// One activity per extension, then one per built-in: the installed backend's, or an
    /// unavailable stand-in. A sheet offers them in this order, after the application's own.
    public func makeActivities() -> [BuiltInActivity] {
        // An extension's activities are its own to set up (they may be prototypes shared by
        // sheets: see `ActivityPrototype`).
        (extensions?.makeActivities(for: environment) ?? []) + makeBuiltInActivities()
    }

    /// One activity per built-in, without the extensions (a sheet asks those at once:
    /// `ActivityExtensionCatalog.sheetPart(for:itemKinds:)`).
    public func makeBuiltInActivities() -> [BuiltInActivity] {
        descriptors.map { descriptor in
            let activity: BuiltInActivity
            if let reason = descriptor.retiredReason {
                activity = UnavailableBuiltInActivity(descriptor: descriptor, reason: reason)
            } else if let factory = factories[descriptor.type] {
                activity = factory()
            } else {
                activity = UnavailableBuiltInActivity(descriptor: descriptor, reason: Self.noBackendReason)
            }
            activity.hostEnvironment = environment
            return activity
        }
    }
}

/// Activities that installed applications add to every sheet (share targets, SPEC §9), beside
/// the built-ins: described like a built-in, made afresh for each sheet.
@MainActor
public protocol ActivityExtensionCatalog: AnyObject {
    /// Every extension installed for `environment`, offered or not.
    func descriptors(for environment: HostEnvironment) -> [BuiltInActivityDescriptor]
    /// An activity per extension installed for `environment`: a fresh one, or an
    /// `ActivityPrototype` the sheets share, which makes the fresh one when it is picked.
    func makeActivities(for environment: HostEnvironment) -> [BuiltInActivity]
    /// What the extensions installed for `environment` offer on a sheet whose items are of
    /// `itemKinds` (in item order), decided at once: a sheet asks this instead of asking each
    /// extension, so two hundred installed extensions cost one call, not two hundred.
    func sheetPart(for environment: HostEnvironment, itemKinds: [ItemKind]) -> ExtensionSheetPart
}

/// The extensions on one sheet: those offered, by row, and the others with the reason each.
@MainActor
public struct ExtensionSheetPart {
    public var shareRow: [Activity]
    public var actionRow: [Activity]
    public var unavailable: [(activity: Activity, reason: String)]
    /// The facts of those reasons that come with a fix, by the activity's identity
    /// (`ActivitySheet.unavailableFixes`).
    public var unavailableFixes: [ObjectIdentifier: Unavailability] = [:]

    public init(shareRow: [Activity] = [], actionRow: [Activity] = [], unavailable: [(activity: Activity, reason: String)] = []) {
        self.shareRow = shareRow
        self.actionRow = actionRow
        self.unavailable = unavailable
    }
}

/// An activity that stands on sheets for its kind of work and makes a fresh activity when it is
/// picked. Sheets can then share one instance (two hundred installed share targets need not be
/// made again for every sheet), while every run has an activity of its own.
///
/// The controller asks a prototype everything a sheet asks (`canPerform`, reasons, title, row)
/// and never prepares or performs it: it performs `makeActivity()`'s activity instead, with the
/// registry's host environment.
@MainActor
public protocol ActivityPrototype: AnyObject {
    /// A new activity of the same type, not yet prepared.
    func makeActivity() -> Activity
}
