import Foundation

/// The base of every built-in activity: its type, title, row and accepted items come from its
/// `BuiltInActivityDescriptor`, and `prepare(withActivityItems:)` receives only the items it
/// accepts. Backend modules subclass it and register the subclass with `ActivityRegistry`.
open class BuiltInActivity: Activity {
    /// What the sheet knows about this activity.
    public let descriptor: BuiltInActivityDescriptor

    /// Makes the built-in activity described by `descriptor`.
    public init(descriptor: BuiltInActivityDescriptor) {
        self.descriptor = descriptor
        super.init()
    }

    open override var activityType: ActivityType? { descriptor.type }
    open override var category: Category { descriptor.category }
    open override var activityTitle: String? { descriptor.title }

    /// True when at least one item is of a kind the descriptor accepts.
    open override func canPerform(withActivityItems activityItems: [Any]) -> Bool {
        activityItems.contains(where: descriptor.acceptance.accepts(item:))
    }

    open override func unavailableReason(forActivityItems activityItems: [Any]) -> String? {
        if canPerform(withActivityItems: activityItems) { return nil }
        let kinds = activityItems.map { ItemKind.of($0).description }
        return "it takes \(descriptor.acceptance.summary), and got \(kinds.joined(separator: ", "))"
    }

    override func usableItems(from items: [Any]) -> [Any] {
        items.filter(descriptor.acceptance.accepts(item:))
    }
}

/// A built-in the sheet lists as unavailable, with the reason: no backend is installed in this
/// build, or the service is gone. It is never offered and never pretends to work.
public final class UnavailableBuiltInActivity: BuiltInActivity {
    /// Why it cannot be offered.
    public let reason: String

    /// Makes the unavailable stand-in for `descriptor`.
    public init(descriptor: BuiltInActivityDescriptor, reason: String) {
        self.reason = reason
        super.init(descriptor: descriptor)
    }

    public override func canPerform(withActivityItems activityItems: [Any]) -> Bool { false }

    public override func unavailableReason(forActivityItems activityItems: [Any]) -> String? { reason }
}
