import Foundation
import ShareSheet

/// The Netscape bookmark file (`<!DOCTYPE NETSCAPE-Bookmark-file-1>`): the HTML that Firefox,
/// Chrome and Safari export and import bookmarks in.
///
/// Entries are `<DT><A HREF=… ADD_DATE=…>title</A>` with an optional `<DD>` description (the
/// preview text). The read flag rides in `TOREAD="1"`/`"0"`, the attribute Pinboard and other
/// bookmark services use for "read later"; browsers ignore it and import every link unread.
public enum NetscapeBookmarks {
    /// The first line of every such file.
    public static let doctype = "<!DOCTYPE NETSCAPE-Bookmark-file-1>"

    /// The bookmark file for `items`, in a folder named `folderTitle`, in the order given.
    public static func export(_ items: [ReadingListItem], folderTitle: String = "Reading List") -> String {
        var html = """
            \(doctype)
            <!-- This is an automatically generated file.
                 It will be read and overwritten.
                 DO NOT EDIT! -->
            <META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
            <TITLE>Bookmarks</TITLE>
            <H1>Bookmarks</H1>
            <DL><p>
                <DT><H3>\(escapeText(folderTitle))</H3>
                <DL><p>

            """
        for item in items {
            let seconds = Int(item.dateAdded.timeIntervalSince1970)
            html += "        <DT><A HREF=\"\(escapeAttribute(item.url.absoluteString))\" ADD_DATE=\"\(seconds)\""
            html += " TOREAD=\"\(item.isRead ? 0 : 1)\">\(escapeText(item.title ?? ""))</A>\n"
            if let preview = item.previewText { html += "        <DD>\(escapeText(preview))\n" }
        }
        html += "    </DL><p>\n</DL><p>\n"
        return html
    }

    /// One link of a bookmark file, before the reading list checks its address.
    public struct Entry: Sendable, Equatable {
        /// The `HREF` as written.
        public var href: String
        /// The link text.
        public var title: String?
        /// The `<DD>` text after the link.
        public var description: String?
        /// `ADD_DATE`, if present.
        public var dateAdded: Date?
        /// `TOREAD`: true, false, or nil when absent.
        public var toRead: Bool?
    }

    /// Reads every link of a bookmark file, in document order, from any folder.
    /// - Throws: `ShareError(.badData)` when the text is not a Netscape bookmark file.
    public static func parse(_ html: String, name: String) throws -> [Entry] {
        let body = html.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        guard body.prefix(doctype.count).uppercased() == doctype.uppercased() else {
            throw ShareError(.badData, "\(name): not a Netscape bookmark file (it does not start with \(doctype))")
        }
        var scanner = TagScanner(Array(body.unicodeScalars))
        var entries: [Entry] = []
        while let tag = scanner.nextTag() {
            switch tag.name {
            case "a":
                guard let href = tag.attributes["href"] else { continue }
                let text = decodeEntities(scanner.text(until: "a"))
                entries.append(
                    Entry(
                        href: href.trimmingCharacters(in: .whitespacesAndNewlines),
                        title: ReadingListItem.cleaned(text),
                        description: nil,
                        dateAdded: tag.attributes["add_date"].flatMap(date(fromAddDate:)),
                        toRead: tag.attributes["toread"].map { $0.trimmingCharacters(in: .whitespaces) != "0" }))
            case "dd":
                guard !entries.isEmpty, entries[entries.count - 1].description == nil else { continue }
                entries[entries.count - 1].description = ReadingListItem.cleaned(
                    decodeEntities(scanner.textUntilNextTag()))
            default:
                continue
            }
        }
        return entries
    }

    /// `ADD_DATE` in seconds since 1970; some exporters write milliseconds or microseconds. Nil
    /// past `Date.distantFuture`: the store and the export keep whole seconds in an `Int`. Nil
    /// before the first second too: `0` means "no date", and a fraction of a second would be
    /// kept as `0`, which would read back as no date.
    static func date(fromAddDate text: String) -> Date? {
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value >= 1 else { return nil }
        let seconds: Double
        switch value {
        case 1e14...: seconds = value / 1e6
        case 1e11...: seconds = value / 1e3
        default: seconds = value
        }
        guard seconds <= Date.distantFuture.timeIntervalSince1970 else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    /// Text for inside an element: `&`, `<` and `>` escaped.
    static func escapeText(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            default: result.append(character)
            }
        }
        return result
    }

    /// Text for a double-quoted attribute: also `"` and `'` escaped.
    static func escapeAttribute(_ text: String) -> String {
        escapeText(text).replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "'", with: "&#39;")
    }

    /// Replaces character references (`&amp;`, `&#39;`, `&#x27;`) with their characters.
    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        let named: [String: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}"]
        var result = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            let afterAmpersand = rest.index(after: ampersand)
            guard let semicolon = rest[afterAmpersand...].prefix(12).firstIndex(of: ";") else {
                result += "&"
                rest = rest[afterAmpersand...]
                continue
            }
            let name = rest[afterAmpersand..<semicolon]
            var replacement: String?
            if name.hasPrefix("#x") || name.hasPrefix("#X") {
                replacement = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String($0) }
            } else if name.hasPrefix("#") {
                replacement = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String($0) }
            } else {
                replacement = named[name.lowercased()]
            }
            if let replacement {
                result += replacement
                rest = rest[rest.index(after: semicolon)...]
            } else {
                result += "&"
                rest = rest[afterAmpersand...]
            }
        }
        return result + rest
    }
}

/// Walks HTML tags well enough for bookmark files: names, attributes (quoted or not), and the
/// text between tags. Comments and `<!…>` declarations are skipped.
private struct TagScanner {
    struct Tag {
        var name: String
        var attributes: [String: String]
    }

    private let scalars: [Unicode.Scalar]
    private var position = 0

    init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

    /// The next opening tag (closing tags are passed over), or nil at the end.
    mutating func nextTag() -> Tag? {
        while position < scalars.count {
            guard scalars[position] == "<" else {
                position += 1
                continue
            }
            if starts(with: "<!--") {
                position = index(after: "-->", from: position + 4)
                continue
            }
            position += 1
            if position < scalars.count, scalars[position] == "/" || scalars[position] == "!" {
                position = index(after: ">", from: position)
                continue
            }
            let name = readName()
            guard !name.isEmpty else { continue }
            return Tag(name: name, attributes: readAttributes())
        }
        return nil
    }

    /// The raw text up to the closing tag `</name>` (case-insensitive), which is consumed.
    mutating func text(until name: String) -> String {
        let start = position
        while position < scalars.count {
            if scalars[position] == "<", position + 1 < scalars.count, scalars[position + 1] == "/" {
                let nameStart = position + 2
                let candidate = String(
                    String.UnicodeScalarView(scalars[nameStart..<min(nameStart + name.count, scalars.count)]))
                if candidate.lowercased() == name {
                    let text = String(String.UnicodeScalarView(scalars[start..<position]))
                    position = index(after: ">", from: position)
                    return text
                }
            }
            position += 1
        }
        return String(String.UnicodeScalarView(scalars[start...]))
    }

    /// The raw text up to the next `<`, which is not consumed.
    mutating func textUntilNextTag() -> String {
        let start = position
        while position < scalars.count, scalars[position] != "<" { position += 1 }
        return String(String.UnicodeScalarView(scalars[start..<position]))
    }

    private func starts(with text: String) -> Bool {
        let pattern = Array(text.unicodeScalars)
        guard position + pattern.count <= scalars.count else { return false }
        return Array(scalars[position..<position + pattern.count]) == pattern
    }

    private func index(after text: String, from start: Int) -> Int {
        let pattern = Array(text.unicodeScalars)
        var index = start
        while index + pattern.count <= scalars.count {
            if Array(scalars[index..<index + pattern.count]) == pattern { return index + pattern.count }
            index += 1
        }
        return scalars.count
    }

    private mutating func readName() -> String {
        var name = ""
        while position < scalars.count, isNameCharacter(scalars[position]) {
            name.unicodeScalars.append(scalars[position])
            position += 1
        }
        return name.lowercased()
    }

    private func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_"
            || scalar == ":"
    }

    private mutating func skipSpace() {
        while position < scalars.count, scalars[position].properties.isWhitespace { position += 1 }
    }

    private mutating func readAttributes() -> [String: String] {
        var attributes: [String: String] = [:]
        while true {
            skipSpace()
            guard position < scalars.count else { return attributes }
            if scalars[position] == ">" {
                position += 1
                return attributes
            }
            if scalars[position] == "/" {
                position += 1
                continue
            }
            let name = readName()
            guard !name.isEmpty else {
                position += 1
                continue
            }
            skipSpace()
            var value = ""
            if position < scalars.count, scalars[position] == "=" {
                position += 1
                skipSpace()
                if position < scalars.count, scalars[position] == "\"" || scalars[position] == "'" {
                    let quote = scalars[position]
                    position += 1
                    while position < scalars.count, scalars[position] != quote {
                        value.unicodeScalars.append(scalars[position])
                        position += 1
                    }
                    // The closing quote, when the file has one (it may end inside the value).
                    if position < scalars.count { position += 1 }
                } else {
                    while position < scalars.count, !scalars[position].properties.isWhitespace, scalars[position] != ">"
                    {
                        value.unicodeScalars.append(scalars[position])
                        position += 1
                    }
                }
            }
            if attributes[name] == nil { attributes[name] = NetscapeBookmarks.decodeEntities(value) }
        }
    }
}
