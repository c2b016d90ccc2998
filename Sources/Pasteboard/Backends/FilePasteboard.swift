import Foundation
import ShareSheet
import ShareSheetSystem

/// The embedded default without a display: the pasteboard as one JSON file,
/// `$XDG_DATA_HOME/sharesheet/pasteboard.json`, replaced atomically on every copy, so `share paste`
/// and other processes read the whole last copy or the one before, never half of one.
public struct FilePasteboard: PasteboardBackend {
    /// The file.
    public let file: URL

    /// The pasteboard file in `folder`.
    public init(folder: URL) {
        file = folder.appendingPathComponent("pasteboard.json")
    }

    public var name: String { "file-backed pasteboard (\(file.path))" }

    private struct Stored: Codable {
        struct Representation: Codable {
            var type: String
            var data: Data
        }
        var version = 1
        var copied: Date
        var items: [[Representation]]
    }

    public func write(_ items: [PasteboardItem]) throws {
        let stored = Stored(
            copied: Date(),
            items: items.map { $0.representations.map { Stored.Representation(type: $0.type, data: $0.data) } })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        try AtomicFile.write(try encoder.encode(stored), to: file, permissions: 0o600)
    }

    /// Every item as it was copied.
    public func items() throws -> [PasteboardItem] {
        guard FileManager.default.fileExists(atPath: file.path) else { return [] }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            let stored = try decoder.decode(Stored.self, from: try Data(contentsOf: file))
            return stored.items.map { PasteboardItem(representations: $0.map { .init(type: $0.type, data: $0.data) }) }
        } catch {
            throw ShareError(.badData, "\(file.path): not a pasteboard file: \((error as NSError).localizedDescription)")
        }
    }

    public func types() throws -> [String] { PasteboardItem.merged(try items()).types }

    public func data(forType type: String) throws -> Data? { PasteboardItem.merged(try items()).data(forType: type) }
}
