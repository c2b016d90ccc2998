import Foundation
import ShareSheet

/// Reading-list files for export and import: Netscape bookmark HTML or JSON.
public enum ReadingListFile {
    /// A file format.
    public enum Format: String, Sendable, CaseIterable {
        /// The Netscape bookmark file browsers read.
        case html
        /// `ReadingListJSON`'s array of entries.
        case json
    }

    /// What a file held.
    public struct Contents: Sendable {
        /// The entries the reading list takes, in file order.
        public var items: [ReadingListItem]
        /// Entries it does not take (`javascript:` bookmarklets, `ftp:` and `place:` links…):
        /// the address as written and why.
        public var refused: [(address: String, reason: String)]
    }

    /// The file's text in `format`.
    public static func export(_ items: [ReadingListItem], as format: Format) -> String {
        switch format {
        case .html: return NetscapeBookmarks.export(items)
        case .json: return ReadingListJSON.export(items)
        }
    }

    /// The format of a file's bytes: JSON when it starts with `[`, HTML otherwise.
    public static func format(of data: Data) -> Format {
        let first = data.first { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }
        return first == UInt8(ascii: "[") ? .json : .html
    }

    /// Reads a file's entries and sorts out those the reading list does not take.
    /// - Parameters:
    ///   - name: the file's name for error messages.
    ///   - format: the format, or nil to tell from the content.
    /// - Throws: `ShareError(.badData)` when the file is not in the format.
    public static func read(_ data: Data, name: String, format: Format? = nil) throws -> Contents {
        var contents = Contents(items: [], refused: [])
        func take(address: String, item: ReadingListItem?) {
            guard let item else {
                contents.refused.append((address, "not a URL"))
                return
            }
            do {
                var normalized = item
                normalized.url = try ReadingList.normalized(item.url)
                contents.items.append(normalized)
            } catch let error as ShareError {
                let prefix = item.url.absoluteString + ": "
                let reason =
                    error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : error.message
                contents.refused.append((address, reason))
            } catch {
                contents.refused.append((address, "\(error)"))
            }
        }
        switch format ?? self.format(of: data) {
        case .json:
            for entry in try ReadingListJSON.parse(data, name: name) { take(address: entry.url, item: entry.item) }
        case .html:
            guard let text = String(data: data, encoding: .utf8) else {
                throw ShareError(.badData, "\(name): not UTF-8 text")
            }
            let now = Date()
            for entry in try NetscapeBookmarks.parse(text, name: name) {
                let item = URL(string: entry.href).map {
                    ReadingListItem(
                        url: $0, title: entry.title, previewText: entry.description, dateAdded: entry.dateAdded ?? now,
                        isRead: !(entry.toRead ?? true))
                }
                take(address: entry.href, item: item)
            }
        }
        return contents
    }
}
