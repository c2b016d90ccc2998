import Foundation

/// One logical line of a vCard: a content line with its folded continuation lines, or a blank
/// line, kept as the exact bytes of the file (line breaks included) so that a rewrite can copy
/// every line it does not change byte for byte.
struct RawLine: Sendable, Hashable {
    /// Where the line's bytes are in the file, its continuation lines and line breaks included.
    var range: Range<Int>
    /// The line unfolded (RFC 6350 §3.2: a line break followed by one space or tab is removed),
    /// without its final line break.
    var unfolded: [UInt8]
    /// The break that ends the line's first physical line: "\r\n", "\n", or none at the end of
    /// the file.
    var lineBreak: [UInt8]

    /// True for a line with nothing on it but spaces.
    var isBlank: Bool { unfolded.allSatisfy { $0 == 0x20 || $0 == 0x09 } }
}

/// Splitting a file into logical lines and folding new ones, at the byte level (RFC 6350 §3.2,
/// RFC 2425 §5.8.1).
enum ContentLines {
    static let space: UInt8 = 0x20
    static let tab: UInt8 = 0x09
    static let carriageReturn: UInt8 = 0x0D
    static let lineFeed: UInt8 = 0x0A

    /// The longest physical line, in octets without its line break.
    static let foldWidth = 75

    /// Splits `bytes` into logical lines. A physical line that starts with a space or a tab
    /// continues the one before it; "\r\n" and "\n" both end a physical line.
    static func split(_ bytes: [UInt8]) -> [RawLine] {
        var lines: [RawLine] = []
        var start = 0
        while start < bytes.count {
            // One physical line: [start, contentEnd) then its break up to `next`.
            var contentEnd = start
            while contentEnd < bytes.count, bytes[contentEnd] != lineFeed { contentEnd += 1 }
            let next = contentEnd < bytes.count ? contentEnd + 1 : contentEnd
            var lineBreak: [UInt8] = contentEnd < bytes.count ? [lineFeed] : []
            if contentEnd > start, bytes[contentEnd - 1] == carriageReturn, !lineBreak.isEmpty {
                contentEnd -= 1
                lineBreak = [carriageReturn, lineFeed]
            }
            let content = bytes[start..<contentEnd]
            if let first = content.first, first == space || first == tab, var last = lines.last, !last.isBlank {
                // A continuation: drop the one leading space or tab and join it to the line before.
                last.unfolded.append(contentsOf: content.dropFirst())
                last.range = last.range.lowerBound..<next
                lines[lines.count - 1] = last
            } else {
                lines.append(RawLine(range: start..<next, unfolded: Array(content), lineBreak: lineBreak))
            }
            start = next
        }
        return lines
    }

    /// Folds one content line so that no physical line is longer than 75 octets, never splitting
    /// a UTF-8 sequence; each continuation starts with one space. Every physical line, the last
    /// included, ends with `lineBreak`.
    static func fold(_ line: String, lineBreak: [UInt8]) -> [UInt8] {
        let bytes = Array(line.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + bytes.count / 70 * (lineBreak.count + 1) + lineBreak.count)
        var start = 0
        var width = foldWidth
        while true {
            var end = min(start + width, bytes.count)
            // Back off to the start of a UTF-8 sequence (continuation bytes are 10xxxxxx).
            while end < bytes.count, end > start, bytes[end] & 0xC0 == 0x80 { end -= 1 }
            result.append(contentsOf: bytes[start..<end])
            result.append(contentsOf: lineBreak)
            start = end
            if start >= bytes.count { break }
            result.append(space)
            width = foldWidth - 1
        }
        return result
    }
}
