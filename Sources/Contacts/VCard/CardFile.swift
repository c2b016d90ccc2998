import Foundation
import ShareSheet

/// Reading a contact from its `.vcf` file a chunk at a time: the file is never held whole, only
/// the logical line being read and the few properties a `Contact` keeps. A file of any size
/// (an export of every contact, with photos, dropped into the folder) is read, or refused, in
/// memory that grows with its longest line, not with the file; a file that is not a regular
/// file, or that is larger than `CardOpening.sizeLimit`, is refused.
enum CardFile {
    /// How many bytes are read at a time.
    static let defaultChunkSize = 1 << 16

    /// The contact in the file at `url`.
    /// - Parameter chunkSize: how many bytes are read at a time (tests make it tiny).
    /// - Throws: `ShareError(.badData)` naming the file when it is not one card that can be read
    ///   (or not a regular file, or too large), `.ioError` when it cannot be read.
    static func contact(at url: URL, chunkSize: Int = defaultChunkSize) throws -> Contact {
        var splitter = LineSplitter()
        var checker = CardChecker(startsWithBOM: false)
        var kept: [Property] = []
        func take(_ line: RawLine) {
            guard let property = checker.add(line), !checker.isPastFirstCard,
                Contact.reads(property, after: kept)
            else { return }
            kept.append(property)
        }
        let handle = try CardOpening.open(url)
        defer { try? handle.close() }
        var head: [UInt8] = []
        while true {
            let chunk: Data
            do {
                chunk = try handle.read(upToCount: chunkSize) ?? Data()
            } catch {
                throw ShareError(.ioError, "\(url.path): cannot read: \(error.localizedDescription)")
            }
            if chunk.isEmpty { break }
            // The file may have grown since it was opened (and checked).
            if splitter.count + chunk.count > CardOpening.sizeLimit {
                throw ShareError(.badData, "\(url.path): \(CardOpening.tooLarge)")
            }
            let bytes = [UInt8](chunk)
            if head.count < 3 {
                // A byte-order mark is refused before anything else: no need to read on.
                head += bytes.prefix(3 - head.count)
                if head == [0xEF, 0xBB, 0xBF] {
                    throw ShareError(.badData, "\(url.path): \(CardChecker.byteOrderMarkProblem.description)")
                }
            }
            splitter.feed(bytes[...], emit: take)
        }
        splitter.finish(emit: take)
        do {
            let version = try checker.finish()
            return Contact(fileURL: url, version: version, properties: kept)
        } catch {
            throw ShareError(.badData, "\(url.path): \(error.description)")
        }
    }
}
