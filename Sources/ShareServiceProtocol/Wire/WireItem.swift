import GVariants

/// One item of `Share`, `ListActivities` and a target's `Share` (SPEC §8): text, a link, or a
/// file sent as a descriptor.
public enum WireItem: Equatable, Sendable {
    /// `{"text": s}`
    case text(String)
    /// `{"uri": s}`: any scheme but `file:`.
    case uri(String)
    /// `{"fd": h, "name": s, "mime-type": s}`: `descriptor` indexes the message's descriptor
    /// list; the name and type are optional.
    case file(descriptor: Int32, name: String?, mimeType: String?)

    /// The item's `a{sv}`.
    public func encode() -> GVariant {
        var entries = WireEntries()
        switch self {
        case .text(let text): entries.add("text", .string(text))
        case .uri(let uri): entries.add("uri", .string(uri))
        case .file(let descriptor, let name, let mimeType):
            entries.add("fd", .handle(descriptor))
            entries.add("name", name)
            entries.add("mime-type", mimeType)
        }
        return entries.variant
    }

    /// Reads an item's `a{sv}`; `number` (from 1) names it in errors.
    /// - Throws: `WireError` for anything but exactly one of text, uri or fd of the right type.
    public init(decoding value: GVariant, number: Int = 1) throws {
        let item = try WireDictionary(value, place: "item \(number): ", name: "item \(number)")
        let kinds = ["text", "uri", "fd"].filter(item.has)
        guard kinds.count == 1, let kind = kinds.first else {
            let keys = item.keys
            let found = keys.isEmpty ? "no keys" : "keys " + Array(Set(keys)).sorted().joined(separator: ", ")
            throw WireError("item \(number): give exactly one of text, uri or fd (it has \(found))")
        }
        switch kind {
        case "text": self = .text(try item.requiredString("text"))
        case "uri": self = .uri(try item.requiredString("uri"))
        default:
            let handle = try item.required("fd", type: "h").handle ?? -1
            self = .file(descriptor: handle, name: try item.string("name"), mimeType: try item.string("mime-type"))
        }
    }

    /// The items' `aa{sv}`.
    public static func encode(_ items: [WireItem]) -> GVariant {
        .dictionaries(items.map { $0.encode() })
    }

    /// Reads an `aa{sv}` of items.
    public static func decode(_ value: GVariant) throws -> [WireItem] {
        guard value.typeString == "aa{sv}" else { throw WireError("items must be of type aa{sv}, not \(value.typeString)") }
        return try value.children.enumerated().map { try WireItem(decoding: $1, number: $0 + 1) }
    }
}
