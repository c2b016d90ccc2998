import CGIO
import Synchronization

/// GVariant values made and read without GLib's variadic calls, which Swift cannot use.
///
/// Every maker returns a floating reference, which the container or the D-Bus call it is handed
/// to takes over.
public enum Variant {
    /// A GVariantType from a type string that lives as long as the program (a literal).
    public static func type(_ text: StaticString) -> OpaquePointer { OpaquePointer(text.utf8Start) }

    public static func string(_ value: String) -> OpaquePointer { g_variant_new_string(value) }
    public static func bool(_ value: Bool) -> OpaquePointer { g_variant_new_boolean(value ? 1 : 0) }
    public static func uint32(_ value: UInt32) -> OpaquePointer { g_variant_new_uint32(value) }
    public static func objectPath(_ value: String) -> OpaquePointer { g_variant_new_object_path(value) }
    /// The index of a descriptor in the message's descriptor list.
    public static func handle(_ index: Int32) -> OpaquePointer { g_variant_new_handle(index) }

    public static func strings(_ values: [String]) -> OpaquePointer {
        var builder = GVariantBuilder()
        g_variant_builder_init(&builder, type("as"))
        for value in values { g_variant_builder_add_value(&builder, string(value)) }
        return g_variant_builder_end(&builder)
    }

    /// An `a{sv}` dictionary, entries in the order given.
    public static func dictionary(_ entries: [(String, OpaquePointer)]) -> OpaquePointer {
        var children: [OpaquePointer?] = entries.map { key, value in entry(key, value) }
        defer { for child in children { g_variant_unref(child) } }
        return array(of: "{sv}", &children)
    }

    /// An array of `a{sv}` dictionaries.
    public static func dictionaries(_ values: [OpaquePointer]) -> OpaquePointer {
        var children: [OpaquePointer?] = values
        return array(of: "a{sv}", &children)
    }

    /// An array of `children` (floating ones taken over, others referenced, as a builder does),
    /// made at once, without a builder's copies.
    private static func array(of elementType: StaticString, _ children: inout [OpaquePointer?]) -> OpaquePointer {
        children.withUnsafeMutableBufferPointer { g_variant_new_array(type(elementType), $0.baseAddress, gsize($0.count)) }
    }

    /// The entry `{key: <value>}`, taking over `value`; the caller owns one (not floating)
    /// reference to it.
    ///
    /// Replies repeat the same entries call after call (an activity's name, title and category,
    /// whether it is offered, its reason), and GLib makes each entry's type afresh under its
    /// global type lock: an entry of a string or boolean is made once and shared (a value is
    /// immutable; each dictionary takes a reference of its own). At most 1024 are kept.
    private static func entry(_ key: String, _ value: OpaquePointer) -> OpaquePointer {
        let text: String
        switch typeString(of: value) {
        case "s": text = "s" + self.text(of: value)
        case "b": text = g_variant_get_boolean(value) != 0 ? "b1" : "b0"
        default: return g_variant_ref_sink(g_variant_new_dict_entry(string(key), g_variant_new_variant(value)))
        }
        let name = key + "\u{0}" + text
        g_variant_ref_sink(value)
        defer { g_variant_unref(value) }
        // Kept as addresses, which the lock can hand across threads.
        let address = sharedEntries.withLock { entries -> UInt in
            // The caller's reference is taken here: another thread may let the kept one go.
            if let kept = entries[name] { return UInt(bitPattern: g_variant_ref(OpaquePointer(bitPattern: kept))) }
            if entries.count >= 1024 {
                for kept in entries.values { g_variant_unref(OpaquePointer(bitPattern: kept)) }
                entries.removeAll()
            }
            let made = g_variant_ref_sink(g_variant_new_dict_entry(string(key), g_variant_new_variant(value)))!
            entries[name] = UInt(bitPattern: made)
            return UInt(bitPattern: g_variant_ref(made))
        }
        return OpaquePointer(bitPattern: address)!
    }

    private static let sharedEntries = Mutex<[String: UInt]>([:])

    /// A tuple of `values`, the shape of a method's reply or a signal's arguments.
    public static func tuple(_ values: [OpaquePointer?]) -> OpaquePointer {
        var children = values
        return children.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    }

    // MARK: Reading

    /// The children of a container, each with a reference the caller's closure may use.
    public static func children(of container: OpaquePointer) -> [OpaquePointer] {
        (0..<g_variant_n_children(container)).compactMap { g_variant_get_child_value(container, $0) }
    }

    /// Releases references taken with `children(of:)` or `lookup`.
    public static func release(_ values: [OpaquePointer]) {
        for value in values { g_variant_unref(value) }
    }

    /// The text of a string variant.
    public static func text(of value: OpaquePointer) -> String {
        String(cString: g_variant_get_string(value, nil))
    }

    /// The type string of a value ("s", "h", "a{ss}").
    public static func typeString(of value: OpaquePointer) -> String {
        String(cString: g_variant_get_type_string(value))
    }

    /// The value of `key` in an `a{sv}` dictionary, whatever its type; nil when absent.
    public static func lookup(_ dictionary: OpaquePointer, _ key: String) -> OpaquePointer? {
        g_variant_lookup_value(dictionary, key, nil)
    }
}
