import CGIO

/// The few GVariant values the front makes, without GLib's variadic calls. Each is floating:
/// the container or the call it is handed to takes it over.
enum Variant {
    static func string(_ value: String) -> OpaquePointer { g_variant_new_string(value) }
    static func bool(_ value: Bool) -> OpaquePointer { g_variant_new_boolean(value ? 1 : 0) }
    static func objectPath(_ value: String) -> OpaquePointer { g_variant_new_object_path(value) }

    static func tuple(_ values: [OpaquePointer?]) -> OpaquePointer {
        var children = values
        return children.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    }

    /// An `a{sv}` dictionary, entries in the order given.
    static func dictionary(_ entries: [(String, OpaquePointer)]) -> OpaquePointer {
        var builder = GVariantBuilder()
        g_variant_builder_init(&builder, OpaquePointer(("a{sv}" as StaticString).utf8Start))
        for (key, value) in entries {
            g_variant_builder_add_value(&builder, g_variant_new_dict_entry(string(key), g_variant_new_variant(value)))
        }
        return g_variant_builder_end(&builder)
    }

    static func text(of value: OpaquePointer) -> String { String(cString: g_variant_get_string(value, nil)) }
    static func typeString(of value: OpaquePointer) -> String { String(cString: g_variant_get_type_string(value)) }
}
