import Foundation
import ShareSheet

/// The reading list as JSON: an array of entries, newest first, each
/// `{"url":…, "title":…, "previewText":…, "dateAdded":"2026-11-30T15:58:01Z", "read":false}`
/// (`title` and `previewText` left out when there is none).
public enum ReadingListJSON {
    private struct Entry: Codable {
        var url: String
        var title: String?
        var previewText: String?
        var dateAdded: Date?
        var read: Bool?
    }

    /// The JSON text for `items`, one entry per line after the opening bracket.
    public static func export(_ items: [ReadingListItem]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let lines = items.map { item -> String in
            let entry = Entry(
                url: item.url.absoluteString, title: item.title, previewText: item.previewText,
                dateAdded: item.dateAdded, read: item.isRead)
            // Encoding strings, dates and booleans cannot fail.
            return String(decoding: (try? encoder.encode(entry)) ?? Data("{}".utf8), as: UTF8.self)
        }
        return lines.isEmpty ? "[]\n" : "[\n" + lines.map { "  " + $0 }.joined(separator: ",\n") + "\n]\n"
    }

    /// One entry of a JSON file, before the reading list checks its address.
    public struct ParsedEntry: Sendable, Equatable {
        /// The `url` as written.
        public var url: String
        /// The item made from the entry; nil when `url` is not a URL at all.
        public var item: ReadingListItem?
    }

    /// Reads the entries of a JSON export, in order.
    /// - Throws: `ShareError(.badData)` naming `name` when the text is not such an array.
    public static func parse(_ data: Data, name: String) throws -> [ParsedEntry] {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let entries: [Entry]
        do {
            entries = try decoder.decode([Entry].self, from: data)
        } catch {
            throw ShareError(.badData, "\(name): not a reading list JSON file (\(describe(error)))")
        }
        let now = Date()
        return entries.map { entry in
            let item = URL(string: entry.url).map {
                ReadingListItem(
                    url: $0, title: entry.title, previewText: entry.previewText, dateAdded: entry.dateAdded ?? now,
                    isRead: entry.read ?? false)
            }
            return ParsedEntry(url: entry.url, item: item)
        }
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context), DecodingError.typeMismatch(_, let context),
            DecodingError.valueNotFound(_, let context):
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        case DecodingError.keyNotFound(let key, let context):
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return "\(path): no \"\(key.stringValue)\""
        default:
            return (error as NSError).localizedDescription
        }
    }
}
