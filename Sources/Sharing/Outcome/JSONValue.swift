/// A JSON value whose objects keep their keys in order, so output reads the way SPEC §4 shows it.
public enum JSONValue: Equatable, Sendable {
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
    /// An object, its members in the order given.
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.encoded == rhs.encoded }

    /// The value as compact JSON text.
    public var encoded: String {
        switch self {
        case .string(let text): return Self.quote(text)
        case .number(let number): return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return "null"
        case .array(let values): return "[" + values.map(\.encoded).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { Self.quote($0.0) + ":" + $0.1.encoded }.joined(separator: ",") + "}"
        }
    }

    /// A string literal with RFC 8259 escapes.
    public static func quote(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{08}": result += "\\b"
            case "\u{0C}": result += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
