import Foundation

/// The one way ShareSheet writes JSON for people and scripts (`share --json`, every listing):
/// keys sorted, slashes unescaped, compact on one line or indented.
///
/// Keys are sorted because `JSONEncoder` on Linux otherwise writes an object's keys in hash
/// order, which changes from one run to the next and would make diffs and golden files useless.
/// Slashes stay unescaped, since MIME types and paths are full of them.
public enum JSONStyle {
    /// `value` as JSON text, without a final newline.
    /// - Parameters:
    ///   - value: what to encode.
    ///   - pretty: true for indented output, one member per line.
    /// - Throws: what `JSONEncoder` throws (a value it cannot represent, such as a NaN).
    public static func text<Value: Encodable>(_ value: Value, pretty: Bool = false) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty
            ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let text = String(decoding: try encoder.encode(value), as: UTF8.self)
        return pretty ? closingEmptyContainers(text) : text
    }

    /// Foundation on Linux indents an empty array or object over blank lines ("[\n\n  ]"):
    /// written `[]` and `{}` instead. A line break is never inside a JSON string (it is
    /// escaped there), so one between the brackets is always the formatter's.
    static func closingEmptyContainers(_ text: String) -> String {
        text.replacing(/\[\n\s*\]/, with: "[]").replacing(/\{\n\s*\}/, with: "{}")
    }
}
