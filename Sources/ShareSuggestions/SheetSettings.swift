import ShareSheetSystem

/// `[sheet]` in the configuration file: whether the activities are ordered by use and whether
/// people, devices and applications are suggested above them (SPEC §12).
public struct SheetSettings: Sendable, Equatable {
    /// The configuration group.
    public static let group = "sheet"

    /// True (`order=by-use`, the default) to put the activities used most for such items first
    /// in their row; false (`order=fixed`) to keep the built-in order.
    public var ordersByUse: Bool
    /// False (`suggestions=false`) to suggest nobody.
    public var suggests: Bool

    /// Both on: what an empty configuration means.
    public static let `default` = SheetSettings(ordersByUse: true, suggests: true)

    /// Describes settings.
    public init(ordersByUse: Bool, suggests: Bool) {
        self.ordersByUse = ordersByUse
        self.suggests = suggests
    }

    /// The settings of `configuration`, each unset key at its default.
    /// - Throws: `ShareError(.configuration)` naming the file, the line and the key for a
    ///   value that is not one of those the key takes.
    public init(configuration: Configuration) throws {
        self = .default
        if let order = configuration.string("order", in: Self.group)?.trimmingCharacters(in: .whitespaces) {
            switch order.lowercased() {
            case "by-use": ordersByUse = true
            case "fixed": ordersByUse = false
            default: throw configuration.problem(with: "order", in: Self.group, "use by-use or fixed")
            }
        }
        if configuration.string("suggestions", in: Self.group) != nil {
            guard let suggests = configuration.bool("suggestions", in: Self.group) else {
                throw configuration.problem(with: "suggestions", in: Self.group, "use true or false")
            }
            self.suggests = suggests
        }
    }
}
