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
    /// How many physical lines end inside the line: the number of "\n" in its bytes.
    var lineFeeds = 0

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
        var splitter = LineSplitter()
        splitter.feed(bytes[...]) { lines.append($0) }
        splitter.finish { lines.append($0) }
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

/// Splits bytes that come a piece at a time (a file read in chunks) into logical lines, handing
/// each one on as soon as the next physical line shows that it does not continue it. It holds
/// one logical line and one physical line at a time, never the whole text.
struct LineSplitter {
    /// The logical line being collected: it may still get continuation lines.
    private var pending: RawLine?
    /// The start of a physical line whose line break has not come yet.
    private var partial: [UInt8] = []
    /// Where `partial` starts in the whole text.
    private var partialStart = 0
    /// How many bytes were fed so far.
    private(set) var count = 0

    /// Feeds the next bytes; `emit` receives every logical line that is complete.
    mutating func feed(_ bytes: ArraySlice<UInt8>, emit: (RawLine) throws -> Void) rethrows {
        var start = bytes.startIndex
        while start < bytes.endIndex {
            guard let lineFeed = bytes[start...].firstIndex(of: ContentLines.lineFeed) else {
                partial.append(contentsOf: bytes[start...])
                break
            }
            let end = partialStart + partial.count + (lineFeed + 1 - start)
            if partial.isEmpty {
                try physicalLine(bytes[start...lineFeed], end: end, emit: emit)
            } else {
                partial.append(contentsOf: bytes[start...lineFeed])
                let line = partial
                partial.removeAll(keepingCapacity: true)
                try physicalLine(line[...], end: end, emit: emit)
            }
            partialStart = end
            start = lineFeed + 1
        }
        count += bytes.count
    }

    /// Ends the text: the last physical line (which may lack a line break) and the last logical
    /// line go to `emit`.
    mutating func finish(emit: (RawLine) throws -> Void) rethrows {
        if !partial.isEmpty {
            let line = partial
            partial = []
            try physicalLine(line[...], end: partialStart + line.count, emit: emit)
            partialStart += line.count
        }
        if let last = pending {
            pending = nil
            try emit(last)
        }
    }

    /// One physical line, its line break (if any) included, ending at `end` in the whole text.
    private mutating func physicalLine(_ bytes: ArraySlice<UInt8>, end: Int, emit: (RawLine) throws -> Void) rethrows {
        let start = end - bytes.count
        var contentEnd = bytes.endIndex
        var lineBreak: [UInt8] = []
        if bytes.last == ContentLines.lineFeed {
            contentEnd -= 1
            lineBreak = [ContentLines.lineFeed]
            if contentEnd > bytes.startIndex, bytes[contentEnd - 1] == ContentLines.carriageReturn {
                contentEnd -= 1
                lineBreak = [ContentLines.carriageReturn, ContentLines.lineFeed]
            }
        }
        let content = bytes[bytes.startIndex..<contentEnd]
        let feeds = lineBreak.isEmpty ? 0 : 1
        if let first = content.first, first == ContentLines.space || first == ContentLines.tab, var last = pending, !last.isBlank {
            // A continuation: drop the one leading space or tab and join it to the line before.
            pending = nil
            last.unfolded.append(contentsOf: content.dropFirst())
            last.range = last.range.lowerBound..<end
            last.lineFeeds += feeds
            pending = last
        } else {
            if let previous = pending { try emit(previous) }
            pending = RawLine(range: start..<end, unfolded: Array(content), lineBreak: lineBreak, lineFeeds: feeds)
        }
    }
}
