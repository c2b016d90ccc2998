import GVariants

/// A message that does not have the shape the interface gives it, in one line naming the item,
/// option or field and what it should have been.
public struct WireError: Error, Equatable, CustomStringConvertible {
    /// What is wrong, in one line.
    public var message: String

    /// An error saying `message`.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}

/// An `a{sv}` being decoded: typed look-ups whose errors start with `place` ("item 2: ",
/// "option ", "results: ").
struct WireDictionary {
    let value: GVariant
    let place: String

    /// - Throws: `WireError` when `value` is not an `a{sv}`.
    init(_ value: GVariant, place: String, name: String) throws {
        guard value.typeString == "a{sv}" else {
            throw WireError("\(name) must be of type a{sv}, not \(value.typeString)")
        }
        self.value = value
        self.place = place
    }

    /// The keys present, sorted.
    var keys: [String] { (value.entries ?? []).map(\.key).sorted() }

    func has(_ key: String) -> Bool { value.lookup(key) != nil }

    /// The value of `key` when present, checked to be of `type`.
    func optional(_ key: String, type: String) throws -> GVariant? {
        guard let found = value.lookup(key) else { return nil }
        guard found.typeString == type else {
            throw WireError("\(place)\(key) must be of type \(type), not \(found.typeString)")
        }
        return found
    }

    func required(_ key: String, type: String) throws -> GVariant {
        guard let found = try optional(key, type: type) else { throw WireError("\(place)\(key) is missing") }
        return found
    }

    func string(_ key: String) throws -> String? { try optional(key, type: "s")?.string }
    func requiredString(_ key: String) throws -> String { try required(key, type: "s").string ?? "" }
    func bool(_ key: String) throws -> Bool? { try optional(key, type: "b")?.bool }
    func strings(_ key: String) throws -> [String]? { try optional(key, type: "as")?.strings }
}

/// An `a{sv}` being made: entries in order, the optional ones only when they have a value.
struct WireEntries {
    private(set) var entries: [(String, GVariant)] = []

    mutating func add(_ key: String, _ value: GVariant) { entries.append((key, value)) }
    mutating func add(_ key: String, _ text: String?) { if let text { add(key, .string(text)) } }
    mutating func add(_ key: String, _ flag: Bool?) { if let flag { add(key, .bool(flag)) } }

    var variant: GVariant { .dictionary(entries) }
}
