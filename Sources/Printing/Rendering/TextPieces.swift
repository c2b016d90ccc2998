import Foundation
import ShareSheet

/// Plain text cut into the pieces a `PagedTextLayout` lays out one at a time, read from memory
/// or from a file a block at a time, so a text of any size is held only a block at a time.
///
/// The rules are those of a whole text split at once: a form feed (`\u{0C}`) starts a new page
/// (a last page holding only white space after one is dropped); `\r\n` ends a line like `\n`;
/// a piece is up to `linesPerPiece` lines, joined by `\n`. Pieces end at a line end, so cutting
/// never changes how text looks, except for a line longer than `maximumPieceBytes`: it is cut
/// at a character boundary and continues on a new line.
struct TextPieces {
    enum Piece: Equatable {
        /// Lines that continue on the page being filled.
        case text(String)
        /// A form feed: the next piece starts a new page.
        case pageBreak
    }

    /// Where the bytes come from.
    enum Source {
        /// A text in memory.
        case string(String)
        /// A file, read `blockSize` bytes at a time; `label` names it in errors.
        case file(URL, label: String)
    }

    static let linesPerPiece = 64
    static let blockSize = 256 * 1024
    static let maximumPieceBytes = 32 * 1024
    /// White space after the last form feed is looked at up to this length to decide whether it
    /// makes a page of its own.
    static let blankTailLimit = 64 * 1024

    private let source: Source
    private var handle: FileHandle?
    private var stringOffset = 0
    private var buffer: [UInt8] = []
    private var position = 0
    private var atEnd = false
    /// A form feed was read: the next piece starts a section (after a page break).
    private var sectionPending = false
    private var finished = false

    /// Opens `source`.
    /// - Throws: `ShareError` `.noInput` naming the file when it cannot be opened.
    init(_ source: Source) throws {
        self.source = source
        if case .file(let url, let label) = source {
            do {
                handle = try FileHandle(forReadingFrom: url)
            } catch {
                throw ShareError(.noInput, "\(label): cannot be read")
            }
        }
    }

    /// The next piece; nil at the end of the text.
    /// - Throws: `ShareError` when the file cannot be read or holds NUL bytes.
    mutating func next() throws -> Piece? {
        if finished { return nil }
        if sectionPending {
            sectionPending = false
            if try remainderIsBlank() {
                finished = true
                return nil
            }
            return .pageBreak
        }
        return .text(try nextLines())
    }

    /// Up to `linesPerPiece` lines from `position`; the section ends after them when a form feed
    /// or the end of the text follows.
    private mutating func nextLines() throws -> String {
        var lines = 0
        var scan = position
        while true {
            if scan == buffer.count {
                if scan - position >= Self.maximumPieceBytes { return take(cutInsideLineAt: scan) }
                if try !readBlock(keepingFrom: &scan) {
                    // The end of the text ends the section and the text.
                    finished = true
                    return take(upTo: buffer.count, skipping: 0)
                }
                continue
            }
            let end = buffer.count
            let found: Int? = buffer.withUnsafeBufferPointer { bytes in
                var index = scan
                while index < end {
                    let byte = bytes[index]
                    if byte == 0x0A || byte == 0x0C { return index }
                    index += 1
                }
                return nil
            }
            guard let found else {
                scan = end
                continue
            }
            if buffer[found] == 0x0C {
                sectionPending = true
                return take(upTo: found, skipping: 1)
            }
            lines += 1
            if lines == Self.linesPerPiece { return take(upTo: found, skipping: 1) }
            scan = found + 1
            if scan - position >= Self.maximumPieceBytes {
                // Long lines: end the piece at the last line end instead.
                return take(upTo: found, skipping: 1)
            }
        }
    }

    /// The text from `position` to `end`, consuming `skipping` more bytes (the line end).
    private mutating func take(upTo end: Int, skipping: Int) -> String {
        var stop = end
        if skipping > 0, buffer[end] == 0x0A, stop > position, buffer[stop - 1] == 0x0D { stop -= 1 }
        let text = Self.decode(buffer[position..<stop])
        position = end + skipping
        return text
    }

    /// A line longer than a piece: cut before `end` at a character boundary (before the last
    /// character's lead byte, which may still lack its continuation bytes).
    private mutating func take(cutInsideLineAt end: Int) -> String {
        var cut = end - 1
        while cut > position, buffer[cut] & 0xC0 == 0x80 { cut -= 1 }
        if buffer[cut] < 0x80 { cut += 1 }
        if cut == position { cut = end }
        let text = Self.decode(buffer[position..<cut])
        position = cut
        return text
    }

    /// `\r\n` inside a piece is a line end like `\n`.
    private static func decode(_ bytes: ArraySlice<UInt8>) -> String {
        guard bytes.contains(0x0D) else { return String(decoding: bytes, as: UTF8.self) }
        var kept: [UInt8] = []
        kept.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte != 0x0D || index + 1 == bytes.endIndex || bytes[index + 1] != 0x0A { kept.append(byte) }
            index += 1
        }
        return String(decoding: kept, as: UTF8.self)
    }

    /// True when what follows the last form feed is only white space (then it prints no page).
    private mutating func remainderIsBlank() throws -> Bool {
        var scan = position
        while true {
            if buffer[scan...].contains(0x0C) { return false }
            if buffer.count - position > Self.blankTailLimit { return false }
            scan = buffer.count
            if try !readBlock(keepingFrom: &scan) { break }
        }
        let tail = Self.decode(buffer[position...])
        return tail.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
    }

    /// Appends the next block to the buffer, dropping what was consumed; `scan` (an index at
    /// or after `position`) is moved with the bytes. Returns false at the end of the text.
    private mutating func readBlock(keepingFrom scan: inout Int) throws -> Bool {
        if atEnd { return false }
        let block: [UInt8]
        switch source {
        case .string(let text):
            let utf8 = text.utf8
            let start = utf8.index(utf8.startIndex, offsetBy: stringOffset)
            let end = utf8.index(start, offsetBy: Self.blockSize, limitedBy: utf8.endIndex) ?? utf8.endIndex
            block = Array(utf8[start..<end])
            stringOffset += block.count
        case .file(_, let label):
            let data: Data
            do {
                data = try handle?.read(upToCount: Self.blockSize) ?? Data()
            } catch {
                throw ShareError(.noInput, "\(label): cannot be read")
            }
            let holdsNUL = data.withUnsafeBytes { $0.baseAddress.map { memchr($0, 0, data.count) != nil } ?? false }
            if holdsNUL { throw ShareError(.badData, "\(label): not text (it holds NUL bytes)") }
            block = [UInt8](data)
        }
        if block.isEmpty {
            atEnd = true
            try? handle?.close()
            handle = nil
            return false
        }
        if position > 0 {
            buffer.removeFirst(position)
            scan -= position
            position = 0
        }
        buffer.append(contentsOf: block)
        return true
    }
}
