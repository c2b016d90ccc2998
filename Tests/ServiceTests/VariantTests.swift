import CGIO
import Foundation
import Testing

import GVariants

/// `Variant.dictionary` and `Variant.dictionaries` make their arrays at once and share entries:
/// the values must be exactly those GLib's builder makes, however often an entry comes back.
@Suite("GVariant dictionaries")
struct VariantTests {
    typealias Entries = @Sendable () -> [(String, OpaquePointer)]

    private static func reference(_ entries: [(String, OpaquePointer)]) -> OpaquePointer {
        var builder = GVariantBuilder()
        g_variant_builder_init(&builder, Variant.type("a{sv}"))
        for (key, value) in entries {
            g_variant_builder_add_value(&builder, g_variant_new_dict_entry(Variant.string(key), g_variant_new_variant(value)))
        }
        return g_variant_ref_sink(g_variant_builder_end(&builder))
    }

    private static func same(_ made: OpaquePointer, _ expected: OpaquePointer) -> Bool {
        let size = g_variant_get_size(made)
        return g_variant_get_type_string(made).map(String.init(cString:)) == g_variant_get_type_string(expected).map(String.init(cString:))
            && size == g_variant_get_size(expected)
            && (size == 0 || memcmp(g_variant_get_data(made), g_variant_get_data(expected), Int(size)) == 0)
    }

    private static let shapes: [Entries] = [
        { [] },
        {
            [("activity", Variant.string("copy")), ("title", Variant.string("Copy")), ("available", Variant.bool(false)),
             ("reason", Variant.string("it takes images only, and got text"))]
        },
        { [("", Variant.string("")), ("n", Variant.uint32(7)), ("list", Variant.strings(["a", "", "ccc"]))] },
        { [("available", Variant.bool(true)), ("title", Variant.string("Copy")), ("available", Variant.bool(false))] },
        // More distinct entries than are kept: the kept ones are let go, the rest made anew.
        { (0..<1500).map { ("key \($0 % 7)", Variant.string(String(repeating: "x", count: $0))) } },
    ]

    @Test("a{sv}: what GLib's builder makes, the first time and again with the same entries", arguments: 0..<5)
    func dictionaryMatchesGLib(shape: Int) {
        for _ in 0..<3 {
            let made = g_variant_ref_sink(Variant.dictionary(Self.shapes[shape]()))!
            let expected = Self.reference(Self.shapes[shape]())
            defer { Variant.release([made, expected]) }
            #expect(Self.same(made, expected))
            #expect(g_variant_is_normal_form(made) != 0)
        }
    }

    @Test("aa{sv}: what GLib's builder makes, for none, one and many dictionaries")
    func dictionariesMatchGLib() {
        for count in [0, 1, 3, 40] {
            let shapes = (0..<count).map { Self.shapes[$0 % Self.shapes.count] }
            let made = g_variant_ref_sink(Variant.dictionaries(shapes.map { Variant.dictionary($0()) }))!
            var builder = GVariantBuilder()
            g_variant_builder_init(&builder, Variant.type("aa{sv}"))
            for shape in shapes {
                let dictionary = Self.reference(shape())
                g_variant_builder_add_value(&builder, dictionary)
                g_variant_unref(dictionary)
            }
            let expected = g_variant_ref_sink(g_variant_builder_end(&builder))!
            defer { Variant.release([made, expected]) }
            #expect(Self.same(made, expected), "\(count) dictionaries")
        }
    }
}
