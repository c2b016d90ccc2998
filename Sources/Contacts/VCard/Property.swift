import Foundation

/// One content line, parsed: `[group.]NAME;PARAM=VALUE…:value` (RFC 6350 §3.3, RFC 2425 §5.8.2).
struct Property: Sendable {
    /// The group before the name ("item1" in `item1.EMAIL`), or nil.
    var group: String?
    /// The name, uppercased (`PHOTO`, `X-SOCIALPROFILE`).
    var name: String
    /// The parameters in order: uppercased name and its values (quotes removed). A vCard 2.1
    /// style bare parameter (`;JPEG`) has the name "TYPE".
    var parameters: [(name: String, values: [String])]
    /// The raw value, still escaped.
    var value: String

    /// The values of every parameter called `name` (uppercase), joined.
    func parameter(_ name: String) -> [String] {
        parameters.filter { $0.name == name }.flatMap(\.values)
    }

    /// A stand-in for a line that could not be parsed.
    init(unparsed bytes: [UInt8]) {
        group = nil
        name = ""
        parameters = []
        value = String(decoding: bytes, as: UTF8.self)
    }

    /// Parses one unfolded content line.
    /// - Throws: a reason, when the line is not `name[;params]:value`.
    init(line: String) throws(VCardSyntaxError) {
        guard line.contains(":") else { throw VCardSyntaxError("a line has no ':' (\(Self.excerpt(line)))") }
        // Walks the scalars by index: the value (a photo can be megabytes) is copied once, at
        // the end, and never held as an array of scalars.
        let scalars = line.unicodeScalars
        var index = scalars.startIndex
        // The name (with an optional group): letters, digits and dashes, then '.', ';' or ':'.
        var words: [String] = []
        var word = ""
        while index < scalars.endIndex {
            let scalar = scalars[index]
            if scalar == "." {
                words.append(word)
                word = ""
            } else if scalar == ";" || scalar == ":" {
                break
            } else if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_" {
                word.unicodeScalars.append(scalar)
            } else {
                throw VCardSyntaxError("a property name has the character \(Self.shown(scalar))")
            }
            scalars.formIndex(after: &index)
        }
        words.append(word)
        guard index < scalars.endIndex else { throw VCardSyntaxError("a line has no ':' (\(Self.excerpt(line)))") }
        guard words.allSatisfy({ !$0.isEmpty }), words.count <= 2 else {
            throw VCardSyntaxError("a line has no property name (\(Self.excerpt(line)))")
        }
        group = words.count == 2 ? words[0] : nil
        name = words.last!.uppercased()
        parameters = []
        // Parameters: ;NAME=value[,value] with values optionally in double quotes.
        while scalars[index] == ";" {
            scalars.formIndex(after: &index)
            var parameterName = ""
            while index < scalars.endIndex, scalars[index] != "=", scalars[index] != ";", scalars[index] != ":" {
                parameterName.unicodeScalars.append(scalars[index])
                scalars.formIndex(after: &index)
            }
            guard index < scalars.endIndex else { throw VCardSyntaxError("the \(name) line has no ':'") }
            guard !parameterName.isEmpty else { throw VCardSyntaxError("the \(name) line has an empty parameter") }
            var values: [String] = []
            if scalars[index] == "=" {
                scalars.formIndex(after: &index)
                var current = ""
                var quoted = false
                while index < scalars.endIndex {
                    let scalar = scalars[index]
                    if scalar == "\"" {
                        quoted.toggle()
                    } else if !quoted, scalar == "," {
                        values.append(current)
                        current = ""
                    } else if !quoted, scalar == ";" || scalar == ":" {
                        break
                    } else {
                        current.unicodeScalars.append(scalar)
                    }
                    scalars.formIndex(after: &index)
                }
                guard index < scalars.endIndex, !quoted else {
                    throw VCardSyntaxError("the \(name) line has an unterminated parameter")
                }
                values.append(current)
                parameters.append((parameterName.uppercased(), values))
            } else {
                // vCard 2.1: `PHOTO;JPEG;ENCODING=BASE64:` names the type bare.
                parameters.append(("TYPE", [parameterName]))
            }
        }
        value = String(scalars[scalars.index(after: index)...])
    }

    /// A character as an error message shows it.
    private static func shown(_ scalar: Unicode.Scalar) -> String {
        scalar.properties.isWhitespace || scalar.value < 0x20
            ? String(format: "U+%04X", scalar.value) : "'\(Character(scalar))'"
    }

    /// The start of a line, for error messages.
    private static func excerpt(_ line: String) -> String {
        let head = line.prefix(30)
        return "\"" + head + (line.count > 30 ? "…" : "") + "\""
    }
}

/// Why a card could not be read.
struct VCardSyntaxError: Error, Sendable, CustomStringConvertible {
    var description: String

    init(_ description: String) { self.description = description }
}

/// Escaping of text values (RFC 6350 §3.4, RFC 2426 §4).
enum VCardText {
    /// The text of an escaped value: `\n`, `\,`, `\;` and `\\` become the characters they stand for.
    static func unescaped(_ value: some StringProtocol) -> String {
        var result = ""
        var escaping = false
        for character in value {
            if escaping {
                switch character {
                case "n", "N": result.append("\n")
                default: result.append(character)
                }
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        if escaping { result.append("\\") }
        return result
    }

    /// Splits a structured value (`N`, `ADR`) at unescaped semicolons and unescapes each part.
    static func components(_ value: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var escaping = false
        for character in value {
            if escaping {
                current.append("\\")
                current.append(character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == ";" {
                parts.append(unescaped(current))
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(unescaped(current))
        return parts
    }

    /// Escapes text for a value: backslash, comma, semicolon and line breaks.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\\": result += "\\\\"
            case ",": result += "\\,"
            case ";": result += "\\;"
            case "\n", "\r\n", "\r": result += "\\n"
            default: result.append(character)
            }
        }
        return result
    }
}
