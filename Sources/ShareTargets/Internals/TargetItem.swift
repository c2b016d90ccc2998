import Foundation
import ShareSheet
import UniformTypes

/// An item as a target receives it: text, a link, or a file (a path, or bytes to be given a
/// name first).
enum TargetItem: Sendable {
    case text(String)
    case uri(String)
    case file(path: String, name: String, mimeType: String?)
    case bytes(Data, name: String, mimeType: String?)

    /// The item a provider or the caller gave, as a target receives it; nil for what a target
    /// cannot receive (the sheet offers a target only items of the types it accepts).
    static func from(_ item: Any) -> TargetItem? {
        switch item {
        case let text as String: return .text(text)
        case let text as Substring: return .text(String(text))
        case let text as AttributedString: return .text(String(text.characters))
        case let text as NSAttributedString: return .text(text.string)
        case let url as URL: return url.isFileURL ? file(url) : .uri(url.absoluteString)
        case let data as DataItem: return .bytes(data.data, name: data.filename, mimeType: data.type.preferredMIMEType)
        case let data as Data:
            let type = UTType.type(ofData: data.prefix(4096))
            return .bytes(data, name: "item" + (type.preferredFilenameExtension.map { "." + $0 } ?? ""), mimeType: type.preferredMIMEType)
        case let image as Image:
            if let url = image.fileURL { return file(url) }
            guard let data = image.encodedData else { return nil }
            let name = "image" + (image.type.preferredFilenameExtension.map { "." + $0 } ?? "")
            return .bytes(data, name: name, mimeType: image.type.preferredMIMEType)
        case let asset as Asset: return file(asset.fileURL)
        default: return nil
        }
    }

    private static func file(_ url: URL) -> TargetItem {
        let type = UTType.type(ofFileAt: url)
        return .file(path: url.path, name: url.lastPathComponent, mimeType: type.preferredMIMEType)
    }

    /// What the item is called in a message: its name, or "text", or the link.
    var label: String {
        switch self {
        case .text: return "text"
        case .uri(let uri): return uri
        case .file(_, let name, _), .bytes(_, let name, _): return name
        }
    }
}
