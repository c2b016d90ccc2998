import Foundation

/// The base of every built-in activity: its type, title, row and accepted items come from its
/// `BuiltInActivityDescriptor`, and `prepare(withActivityItems:)` receives only the items it
/// accepts. Backend modules subclass it and register the subclass with `ActivityRegistry`.
///
/// A sheet sorts each item into its `ItemKind` once, not once per activity: while it asks
/// `canPerform(withActivityItems:)`, `unavailableReason(forActivityItems:)` or filters the items
/// a built-in receives, the kinds it computed are reused for the very array it passes. Called
/// directly, with any other array, the methods classify the items themselves.
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

    open override var sendsItemsAway: Bool { descriptor.sendsItemsAway }
    open override var needsWidelyReadImages: Bool { descriptor.needsWidelyReadImages }
    open override var imageSizeSettingGroup: String? { descriptor.imageSizeSettingGroup }

    /// True when at least one item is of a kind the descriptor accepts.
    open override func canPerform(withActivityItems activityItems: [Any]) -> Bool {
        // Whether any item fits depends only on which kinds there are: each distinct kind is
        // checked once (a type's conformance is a look-up in the type database).
        canPerform(withItemKinds: itemKinds(of: activityItems, distinct: true))
    }

    /// True when at least one of the item kinds is one the descriptor accepts. Beyond UIKit; the
    /// sheet calls it with each distinct kind of its items once.
    open func canPerform(withItemKinds kinds: [ItemKind]) -> Bool {
        // The sheet asks again to explain a built-in it does not offer: the answer is kept for
        // the sheet's own kinds (a file type's conformance is a look-up in the type database).
        guard let known = knownItemKinds, known.isDistinctKinds(kinds) else {
            return kinds.contains(where: descriptor.acceptance.accepts)
        }
        let key = ObjectIdentifier(self)
        if let accepted = known.memo.accepted[key] { return accepted }
        let accepted = kinds.contains(where: descriptor.acceptance.accepts)
        known.memo.accepted[key] = accepted
        return accepted
    }

    open override func unavailableReason(forActivityItems activityItems: [Any]) -> String? {
        unavailableReason(forItemKinds: itemKinds(of: activityItems, distinct: true))
    }

    /// Why the activity is not offered for items of these kinds, or nil when it would be.
    /// Beyond UIKit.
    open func unavailableReason(forItemKinds kinds: [ItemKind]) -> String? {
        if canPerform(withItemKinds: kinds) { return nil }
        return "it takes \(descriptor.acceptance.summary), and got \(describedKinds(kinds))"
    }

    /// `describe(kinds)`, made once per sheet for the sheet's own kinds: every built-in the
    /// sheet does not offer names the same kinds.
    private func describedKinds(_ kinds: [ItemKind]) -> String {
        guard let known = knownItemKinds, known.isDistinctKinds(kinds) else { return Self.describe(kinds) }
        if let described = known.memo.described { return described }
        let described = Self.describe(kinds)
        known.memo.described = described
        return described
    }

    /// The kinds in order, each named once: "text, web link" for a thousand of them.
    static func describe(_ kinds: [ItemKind]) -> String {
        var seen = Set<String>()
        var names: [String] = []
        for kind in kinds {
            let name = kind.description
            if seen.insert(name).inserted { names.append(name) }
        }
        return names.joined(separator: ", ")
    }

    override func usableIndices(from items: [Any]) -> [Int] {
        let kinds = itemKinds(of: items, distinct: false)
        let accepted = KnownItemKinds.distinct(kinds).filter(descriptor.acceptance.accepts)
        return kinds.indices.filter { index in accepted.contains(kinds[index]) }
    }

    /// The kinds of `items` (each once when `distinct`, in first-seen order): the sheet's, when
    /// it is the array the sheet classified, so a subclass that looks at kinds classifies no item
    /// again. Beyond UIKit.
    public final func itemKinds(of items: [Any], distinct: Bool = false) -> [ItemKind] {
        if let known = knownItemKinds, known.matches(items) { return distinct ? known.distinctKinds : known.kinds }
        let kinds = items.map(ItemKind.of)
        return distinct ? KnownItemKinds.distinct(kinds) : kinds
    }

    /// A value the sheet's built-ins share while it asks them about `items`, its items: the
    /// first to ask for a value of this type makes it, the others, and later questions about
    /// the same sheet, get that one. Asked at any other time, or about other items, `make` runs
    /// each time. Beyond UIKit; for what every activity of a kind would otherwise work out
    /// again (the accounts, a settings file, its own answer when the sheet asks twice).
    public final func sheetValue<Value>(
        _ type: Value.Type = Value.self, forItems items: [Any], make: () -> Value
    ) -> Value {
        guard let known = knownItemKinds, known.matches(items) else { return make() }
        let memo = known.memo
        let key = ObjectIdentifier(type)
        if let kept = memo.shared[key] as? Value { return kept }
        let made = make()
        memo.shared[key] = made
        return made
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

    public override func canPerform(withItemKinds kinds: [ItemKind]) -> Bool { false }

    public override func unavailableReason(forActivityItems activityItems: [Any]) -> String? { reason }

    public override func unavailableReason(forItemKinds kinds: [ItemKind]) -> String? { reason }
}

/// Item kinds a sheet computed once for one array of items, lent to its activities while it
/// asks them about that array.
struct KnownItemKinds {
    /// The kinds, in item order.
    var kinds: [ItemKind]
    /// Each kind once, in first-seen order.
    var distinctKinds: [ItemKind]
    /// Answers worked out from these kinds, shared by every copy lent to the sheet's activities.
    let memo = Memo()
    private var storage: UnsafeRawPointer?

    /// What the sheet's built-ins worked out from its kinds, so asking twice costs nothing.
    final class Memo {
        /// Whether each built-in (by identity) accepts one of the distinct kinds.
        var accepted: [ObjectIdentifier: Bool] = [:]
        /// `BuiltInActivity.describe(distinctKinds)`.
        var described: String?
        /// `BuiltInActivity.sheetValue(_:forItems:make:)`'s values, by their type.
        var shared: [ObjectIdentifier: Any] = [:]
    }

    /// Remembers `kinds` as those of `items`, which the caller keeps alive and unchanged.
    init(kinds: [ItemKind], of items: [Any]) {
        self.kinds = kinds
        distinctKinds = Self.distinct(kinds)
        storage = items.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    /// True when `kinds` is this sheet's `distinctKinds` array itself (same storage), as
    /// `BuiltInActivity` hands it on; an equal array made elsewhere does not count.
    func isDistinctKinds(_ kinds: [ItemKind]) -> Bool {
        kinds.count == distinctKinds.count
            && kinds.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
                == distinctKinds.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    /// Each kind once, in first-seen order (a sheet holds few distinct kinds).
    static func distinct(_ kinds: [ItemKind]) -> [ItemKind] {
        var result: [ItemKind] = []
        for kind in kinds where !result.contains(kind) { result.append(kind) }
        return result
    }

    /// True when `items` is the very array (same storage, same count) the kinds describe.
    func matches(_ items: [Any]) -> Bool {
        items.count == kinds.count && items.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } == storage
    }
}
