import CGIO

/// A GVariant value held by Swift: one strong reference, let go when the wrapper goes.
///
/// GVariants are immutable and their reference counts atomic, so a wrapper may cross threads.
/// The readers return nil for a value of another type, so a decoder says what it expected.
public final class GVariant: @unchecked Sendable, CustomStringConvertible {
    /// The value, valid as long as this wrapper lives (see `withPointer`). Hand it to GLib as it
    /// is: containers, replies and signals take references of their own to a value that is not
    /// floating.
    public let pointer: OpaquePointer

    /// Takes over `value`: a floating reference is sunk, a full one is kept as it is.
    public init(taking value: OpaquePointer) {
        pointer = g_variant_take_ref(value)
    }

    /// Takes a reference of its own to a value someone else owns (a D-Bus call's parameters).
    public init(borrowing value: OpaquePointer) {
        pointer = g_variant_ref_sink(value)
    }

    deinit { g_variant_unref(pointer) }

    /// Calls `body` with the value, kept alive until it returns: the way to hand a wrapper made
    /// in the same expression to GLib (`message.encode().withPointer { g_dbus_…($0) }`).
    public func withPointer<Result>(_ body: (OpaquePointer) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(self) { try body(pointer) }
    }

    // MARK: Making

    /// `s`
    public static func string(_ value: String) -> GVariant { GVariant(taking: Variant.string(value)) }
    /// `b`
    public static func bool(_ value: Bool) -> GVariant { GVariant(taking: Variant.bool(value)) }
    /// `u`
    public static func uint32(_ value: UInt32) -> GVariant { GVariant(taking: Variant.uint32(value)) }
    /// `o`
    public static func objectPath(_ value: String) -> GVariant { GVariant(taking: Variant.objectPath(value)) }
    /// `h`: the index of a descriptor in the message's descriptor list.
    public static func handle(_ index: Int32) -> GVariant { GVariant(taking: Variant.handle(index)) }
    /// `as`
    public static func strings(_ values: [String]) -> GVariant { GVariant(taking: Variant.strings(values)) }

    /// `a{ss}`, entries in the order given.
    public static func stringPairs(_ pairs: [(String, String)]) -> GVariant {
        array(of: "{ss}", pairs.map { g_variant_new_dict_entry(Variant.string($0.0), Variant.string($0.1)) })
    }

    /// `a{sv}`, entries in the order given.
    public static func dictionary(_ entries: [(String, GVariant)]) -> GVariant {
        withExtendedLifetime(entries) { GVariant(taking: Variant.dictionary(entries.map { ($0.0, $0.1.pointer) })) }
    }

    /// `aa{sv}`: each value must be an `a{sv}`.
    public static func dictionaries(_ values: [GVariant]) -> GVariant {
        withExtendedLifetime(values) { GVariant(taking: Variant.dictionaries(values.map(\.pointer))) }
    }

    /// A tuple of `values`: a method's arguments or reply, a signal's arguments, a struct such as `(sss)`.
    public static func tuple(_ values: [GVariant]) -> GVariant {
        withExtendedLifetime(values) { GVariant(taking: Variant.tuple(values.map(\.pointer))) }
    }

    /// An array whose elements are of `elementType` (a literal such as "(sss)"); empty ones too.
    public static func array(of elementType: StaticString, _ values: [GVariant]) -> GVariant {
        withExtendedLifetime(values) { array(of: elementType, values.map(\.pointer)) }
    }

    /// Floating children are taken over, others referenced.
    private static func array(of elementType: StaticString, _ children: [OpaquePointer?]) -> GVariant {
        var children = children
        return GVariant(
            taking: children.withUnsafeMutableBufferPointer {
                g_variant_new_array(Variant.type(elementType), $0.baseAddress, gsize($0.count))!
            })
    }

    /// Parses GVariant text format (`"[{'text': <'hi'>}]"`), for tests and tools.
    public static func parse(_ text: String, type: StaticString? = nil) -> GVariant? {
        var error: UnsafeMutablePointer<GError>?
        let parsed = text.withCString { g_variant_parse(type.map { Variant.type($0) }, $0, nil, nil, &error) }
        if let error { g_error_free(error) }
        return parsed.map(GVariant.init(taking:))
    }

    // MARK: Reading

    /// The type string: "s", "a{sv}", "(ua{sv})".
    public var typeString: String { Variant.typeString(of: pointer) }

    /// GLib's text for the value, with types where they are needed.
    public var description: String {
        let printed = g_variant_print(pointer, 1)
        defer { g_free(printed) }
        return printed.map { String(cString: $0) } ?? ""
    }

    /// The text of an `s` or `o`.
    public var string: String? {
        let type = typeString
        return type == "s" || type == "o" ? Variant.text(of: pointer) : nil
    }

    /// A `b`.
    public var bool: Bool? { typeString == "b" ? g_variant_get_boolean(pointer) != 0 : nil }

    /// A `u`.
    public var uint32: UInt32? { typeString == "u" ? g_variant_get_uint32(pointer) : nil }

    /// An `h`.
    public var handle: Int32? { typeString == "h" ? g_variant_get_handle(pointer) : nil }

    /// The texts of an `as`.
    public var strings: [String]? { typeString == "as" ? children.compactMap(\.string) : nil }

    /// The value inside a `v`.
    public var unboxed: GVariant? {
        typeString == "v" ? g_variant_get_variant(pointer).map(GVariant.init(taking:)) : nil
    }

    /// The children of a container (an array's elements, a tuple's or an entry's fields); none for
    /// a basic value.
    public var children: [GVariant] {
        guard g_variant_is_container(pointer) != 0 else { return [] }
        return Variant.children(of: pointer).map(GVariant.init(taking:))
    }

    /// The entries of an `a{sv}` in order, values unboxed; nil for another type.
    public var entries: [(key: String, value: GVariant)]? {
        guard typeString == "a{sv}" else { return nil }
        return children.compactMap { entry in
            let fields = entry.children
            guard fields.count == 2, let key = fields[0].string, let value = fields[1].unboxed else { return nil }
            return (key, value)
        }
    }

    /// The pairs of an `a{ss}` in order; nil for another type.
    public var stringPairs: [(String, String)]? {
        guard typeString == "a{ss}" else { return nil }
        return children.compactMap { entry in
            let fields = entry.children
            guard fields.count == 2, let key = fields[0].string, let value = fields[1].string else { return nil }
            return (key, value)
        }
    }

    /// The value of `key` in an `a{sv}`, whatever its type; nil when absent.
    public func lookup(_ key: String) -> GVariant? {
        guard typeString == "a{sv}" else { return nil }
        return Variant.lookup(pointer, key).map(GVariant.init(taking:))
    }

    /// Whether both hold the same value: same type, same serialized bytes in normal form.
    public func isSame(as other: GVariant) -> Bool {
        g_variant_equal(UnsafeRawPointer(pointer), UnsafeRawPointer(other.pointer)) != 0
    }
}
