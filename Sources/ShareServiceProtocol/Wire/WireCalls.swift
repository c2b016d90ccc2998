import GVariants

/// The arguments of `ListActivities(aa{sv} items, a{sv} options)`, which a target's
/// `org.sharesheet.Target1.Share` takes too.
public struct WireItemsCall: Equatable, Sendable {
    /// `items`
    public var items: [WireItem]
    /// `options`
    public var options: WireOptions

    /// The arguments for these items and options.
    public init(items: [WireItem], options: WireOptions = WireOptions()) {
        self.items = items
        self.options = options
    }

    /// `(aa{sv}a{sv})`
    public func encode() -> GVariant { .tuple([WireItem.encode(items), options.encode()]) }

    /// - Throws: `WireError` when the arguments are not `(aa{sv}a{sv})` or an item or option is malformed.
    public init(decoding value: GVariant) throws {
        guard value.typeString == "(aa{sv}a{sv})" else {
            throw WireError("the arguments must be of type (aa{sv}a{sv}), not \(value.typeString)")
        }
        let arguments = value.children
        // Options first: a bad handle_token is the first thing said.
        options = try WireOptions(decoding: arguments[1])
        items = try WireItem.decode(arguments[0])
    }
}

/// The arguments of `Share(s parent_window, aa{sv} items, a{sv} options)`.
public struct WireShareCall: Equatable, Sendable {
    /// "" or `x11:XID` or `wayland:HANDLE`.
    public var parentWindow: String
    /// `items`
    public var items: [WireItem]
    /// `options`
    public var options: WireOptions

    /// The arguments for these items and options, over `parentWindow`.
    public init(parentWindow: String = "", items: [WireItem], options: WireOptions = WireOptions()) {
        self.parentWindow = parentWindow
        self.items = items
        self.options = options
    }

    /// `(saa{sv}a{sv})`
    public func encode() -> GVariant {
        .tuple([.string(parentWindow), WireItem.encode(items), options.encode()])
    }

    /// - Throws: `WireError` when the arguments are not `(saa{sv}a{sv})` or an item or option is malformed.
    public init(decoding value: GVariant) throws {
        guard value.typeString == "(saa{sv}a{sv})" else {
            throw WireError("the arguments must be of type (saa{sv}a{sv}), not \(value.typeString)")
        }
        let arguments = value.children
        parentWindow = arguments[0].string ?? ""
        options = try WireOptions(decoding: arguments[2])
        items = try WireItem.decode(arguments[1])
    }
}

/// The reply of `ListActivities`: `(aa{sv})`.
public enum WireListing {
    /// The reply for `activities`.
    public static func encode(_ activities: [WireActivity]) -> GVariant { .tuple([WireActivity.encode(activities)]) }

    /// - Throws: `WireError` when the reply is not `(aa{sv})` or an activity is malformed.
    public static func decode(_ value: GVariant) throws -> [WireActivity] {
        guard value.typeString == "(aa{sv})" else {
            throw WireError("the reply must be of type (aa{sv}), not \(value.typeString)")
        }
        return try WireActivity.decode(value.children[0])
    }
}
