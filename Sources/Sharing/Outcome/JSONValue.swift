/// A JSON value built by hand (a contact's card, with members that depend on what it holds),
/// written in the one style like every other: through `JSONStyle`, keys sorted.
public enum JSONValue: Equatable, Sendable, Encodable {
    /// A string.
    case string(String)
    /// A whole number.
    case number(Int)
    /// true or false.
    case bool(Bool)
    /// null.
    case null
    /// An array.
    case array([JSONValue])
    /// An object; the order of its members does not matter, since keys are written sorted.
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.encoded == rhs.encoded }

    /// The value as compact JSON text, keys sorted.
    public var encoded: String { (try? JSONStyle.text(self)) ?? "null" }

    /// An object's member name as a coding key.
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .string(let text):
            var container = encoder.singleValueContainer()
            try container.encode(text)
        case .number(let number):
            var container = encoder.singleValueContainer()
            try container.encode(number)
        case .bool(let flag):
            var container = encoder.singleValueContainer()
            try container.encode(flag)
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .array(let values):
            var container = encoder.unkeyedContainer()
            for value in values { try container.encode(value) }
        case .object(let members):
            var container = encoder.container(keyedBy: Key.self)
            for (name, value) in members { try container.encode(value, forKey: Key(stringValue: name)) }
        }
    }
}
