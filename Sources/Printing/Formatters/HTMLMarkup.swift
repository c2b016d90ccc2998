import Foundation

/// Turns basic HTML into Pango markup: paragraphs, headings, bold, italic, underline, links,
/// ordered and unordered lists, line breaks, preformatted text. Everything else keeps its text
/// and loses its tag; scripts and styles are dropped.
enum HTMLMarkup {
    /// Pango markup for `html`.
    static func pangoMarkup(fromHTML html: String) -> String {
        var converter = Converter()
        converter.run(Array(html.unicodeScalars))
        return converter.finish()
    }

    /// `text` with the five characters Pango markup reserves escaped.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private struct ListState {
        var ordered: Bool
        var counter = 0
    }

    private struct Converter {
        var output = ""
        /// Open Pango elements: the HTML tag that opened each, and its Pango open/close text.
        var open: [(tag: String, start: String, end: String)] = []
        var pendingNewlines = 0
        var wroteText = false
        var lastWasSpace = true
        var preformatted = 0
        var skipping: String?
        var lists: [ListState] = []
        var linkTargets: [String?] = []

        mutating func run(_ scalars: [Unicode.Scalar]) {
            var index = 0
            var text = ""
            while index < scalars.count {
                let scalar = scalars[index]
                if scalar == "<" {
                    if let end = scalars[index...].firstIndex(of: ">") {
                        flushText(&text)
                        let inner = String(String.UnicodeScalarView(scalars[(index + 1)..<end]))
                        if inner.hasPrefix("!--") {
                            // A comment may contain '>': skip to its real end.
                            if let close = String(String.UnicodeScalarView(scalars[index...])).range(of: "-->") {
                                let length = String(String.UnicodeScalarView(scalars[index...]))[..<close.upperBound].unicodeScalars.count
                                index += length
                                continue
                            }
                        }
                        handleTag(inner)
                        index = end + 1
                        continue
                    }
                }
                if scalar == "&", let (decoded, length) = entity(scalars, at: index) {
                    text += decoded
                    index += length
                    continue
                }
                text.unicodeScalars.append(scalar)
                index += 1
            }
            flushText(&text)
        }

        mutating func finish() -> String {
            while let element = open.popLast() { output += element.end }
            return output
        }

        // MARK: Text

        mutating func flushText(_ text: inout String) {
            defer { text = "" }
            guard skipping == nil, !text.isEmpty else { return }
            if preformatted > 0 {
                emit(text)
                return
            }
            var collapsed = ""
            for character in text {
                if character.isWhitespace {
                    if !lastWasSpace { collapsed.append(" ") }
                    lastWasSpace = true
                } else {
                    collapsed.append(character)
                    lastWasSpace = false
                }
            }
            if !wroteText || pendingNewlines > 0 {
                while collapsed.hasPrefix(" ") { collapsed.removeFirst() }
            }
            guard !collapsed.isEmpty else { return }
            emit(collapsed)
        }

        mutating func emit(_ text: String) {
            if wroteText, pendingNewlines > 0 {
                output += String(repeating: "\n", count: pendingNewlines)
            }
            pendingNewlines = 0
            output += HTMLMarkup.escaped(text)
            wroteText = true
        }

        mutating func block(_ newlines: Int) {
            pendingNewlines = max(pendingNewlines, newlines)
            lastWasSpace = true
        }

        // MARK: Tags

        mutating func handleTag(_ raw: String) {
            var body = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            let closing = body.hasPrefix("/")
            if closing { body.removeFirst() }
            if body.hasSuffix("/") { body.removeLast() }
            let name = String(body.prefix { !$0.isWhitespace }).lowercased()
            let attributes = String(body.dropFirst(name.count))
            if let skipped = skipping {
                if closing, name == skipped { skipping = nil }
                return
            }
            switch name {
            case "script", "style", "head", "title":
                if !closing { skipping = name }
            case "br":
                if !closing {
                    output += wroteText ? String(repeating: "\n", count: pendingNewlines) + "\n" : ""
                    pendingNewlines = 0
                    lastWasSpace = true
                }
            case "p", "div", "blockquote", "section", "article", "table", "tr":
                block(2)
            case "h1", "h2", "h3", "h4", "h5", "h6":
                block(2)
                if closing {
                    close(name)
                } else {
                    let sizes = ["h1": "xx-large", "h2": "x-large", "h3": "large", "h4": "medium", "h5": "medium", "h6": "small"]
                    push(name, "<span size=\"\(sizes[name]!)\" weight=\"bold\">", "</span>")
                }
            case "b", "strong":
                closing ? close(name) : push(name, "<b>", "</b>")
            case "i", "em", "cite", "var":
                closing ? close(name) : push(name, "<i>", "</i>")
            case "u", "ins":
                closing ? close(name) : push(name, "<u>", "</u>")
            case "s", "del", "strike":
                closing ? close(name) : push(name, "<s>", "</s>")
            case "code", "tt", "kbd", "samp":
                closing ? close(name) : push(name, "<tt>", "</tt>")
            case "pre":
                block(2)
                if closing {
                    preformatted = max(0, preformatted - 1)
                    close(name)
                } else {
                    preformatted += 1
                    push(name, "<tt>", "</tt>")
                }
            case "a":
                if closing {
                    close(name)
                    if let target = linkTargets.popLast() ?? nil { emit(" (\(target))") }
                } else {
                    let href = Self.attribute("href", in: attributes)
                    linkTargets.append(href.flatMap { $0.hasPrefix("#") || $0.isEmpty ? nil : $0 })
                    push(name, "<span foreground=\"#1A4DB3\" underline=\"single\">", "</span>")
                }
            case "ul", "ol":
                if closing {
                    _ = lists.popLast()
                } else {
                    lists.append(ListState(ordered: name == "ol"))
                }
                block(lists.isEmpty ? 2 : 1)
            case "li":
                block(1)
                if !closing {
                    var marker = "•"
                    if !lists.isEmpty {
                        lists[lists.count - 1].counter += 1
                        if lists[lists.count - 1].ordered { marker = "\(lists[lists.count - 1].counter)." }
                    }
                    let indent = String(repeating: "    ", count: max(0, lists.count - 1))
                    emit(indent + marker + " ")
                    lastWasSpace = true
                }
            default:
                break
            }
        }

        mutating func push(_ tag: String, _ start: String, _ end: String) {
            open.append((tag, start, end))
            output += start
        }

        /// Closes the innermost `tag`, closing and reopening anything opened inside it.
        mutating func close(_ tag: String) {
            guard let index = open.lastIndex(where: { $0.tag == tag }) else { return }
            let inner = open[(index + 1)...]
            for element in inner.reversed() { output += element.end }
            output += open[index].end
            open.remove(at: index)
            for element in open[index...] { output += element.start }
        }

        static func attribute(_ name: String, in attributes: String) -> String? {
            let pattern = name + "\\s*=\\s*(\"([^\"]*)\"|'([^']*)'|([^\\s>]+))"
            guard let regex = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]),
                let match = regex.firstMatch(in: attributes, range: NSRange(attributes.startIndex..., in: attributes))
            else { return nil }
            for group in 2...4 {
                if let range = Range(match.range(at: group), in: attributes) {
                    return HTMLMarkup.decodeEntities(String(attributes[range]))
                }
            }
            return nil
        }

        func entity(_ scalars: [Unicode.Scalar], at index: Int) -> (String, Int)? {
            HTMLMarkup.entity(scalars, at: index)
        }
    }

    static let namedEntities: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}", "copy": "©", "reg": "®",
        "mdash": "—", "ndash": "–", "hellip": "…", "laquo": "«", "raquo": "»", "euro": "€", "bull": "•",
        "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”", "trade": "™", "deg": "°", "times": "×",
    ]

    static func entity(_ scalars: [Unicode.Scalar], at index: Int) -> (String, Int)? {
        var end = index + 1
        while end < scalars.count, end - index <= 10, scalars[end] != ";" { end += 1 }
        guard end < scalars.count, scalars[end] == ";", end > index + 1 else { return nil }
        let name = String(String.UnicodeScalarView(scalars[(index + 1)..<end]))
        let length = end - index + 1
        if name.hasPrefix("#") {
            let digits = name.dropFirst()
            let value = digits.lowercased().hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            guard let value, let scalar = Unicode.Scalar(value) else { return nil }
            return (String(Character(scalar)), length)
        }
        guard let decoded = namedEntities[name] else { return nil }
        return (decoded, length)
    }

    static func decodeEntities(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var result = ""
        var index = 0
        while index < scalars.count {
            if scalars[index] == "&", let (decoded, length) = entity(scalars, at: index) {
                result += decoded
                index += length
            } else {
                result.unicodeScalars.append(scalars[index])
                index += 1
            }
        }
        return result
    }
}
