import Foundation
import UniformTypes

/// What kind of thing an activity item is, the way SPEC §1.7's table sorts items.
///
/// Classification looks at the value only (a source's placeholder stands for the source), so it
/// is cheap: a file URL is typed by its name, and by a few bytes of content only when the name
/// says nothing.
public enum ItemKind: Sendable, Equatable, CustomStringConvertible {
    /// A plain string.
    case string
    /// An `AttributedString` or `NSAttributedString`.
    case attributedString
    /// An `http` or `https` URL.
    case webURL
    /// A local file URL and the file's type.
    case fileURL(UTType)
    /// A URL of another scheme (`mailto`, `sms`, `tel`, `geo`…), lowercased.
    case schemeURL(String)
    /// Bytes and their type; `declared` is true when the caller named the type (a `DataItem`
    /// or a source's `dataTypeIdentifier`), false when it was only sniffed from the content.
    case data(UTType, declared: Bool)
    /// An `Image` and its encoding.
    case image(UTType)
    /// A library `Asset` and its type.
    case asset(UTType)
    /// A `Color`.
    case color
    /// A `[String: Any]` dictionary.
    case dictionary
    /// An array, with the kinds of its elements.
    case array([ItemKind])
    /// A `PrintInfo`.
    case printInfo
    /// A `PrintFormatter`.
    case printFormatter
    /// A `PrintPageRenderer`.
    case printPageRenderer
    /// Anything else, by its type name.
    case other(String)

    /// Sorts a value into its kind.
    public static func of(_ item: Any) -> ItemKind {
        // The commonest items by their exact type: comparing metatypes tries no cast at all.
        let itemType = Swift.type(of: item)
        if itemType == String.self { return .string }
        if itemType == URL.self, let url = item as? URL { return of(url: url) }
        // Value types first: on Linux an `is NSAttributedString` test bridges the value to an
        // object first, which costs microseconds for a URL and grows with the size of Data.
        switch item {
        case is String, is Substring: return .string
        case let url as URL: return of(url: url)
        case let dataItem as DataItem: return .data(dataItem.type, declared: true)
        case let data as Data: return .data(UTType.type(ofData: data.prefix(4096)), declared: false)
        case is AttributedString: return .attributedString
        case _ where Swift.type(of: item) is NSAttributedString.Type: return .attributedString
        case let image as Image: return .image(image.type)
        case let asset as Asset: return .asset(asset.type)
        case is Color: return .color
        case is [String: Any]: return .dictionary
        case let array as [Any]: return .array(array.map(of))
        case is PrintInfo: return .printInfo
        case is PrintFormatter: return .printFormatter
        case is PrintPageRenderer: return .printPageRenderer
        default: return .other(String(describing: Swift.type(of: item)))
        }
    }

    static func of(url: URL) -> ItemKind {
        // A web link's scheme is lowercase almost always: one look at it, no lowercased copy,
        // and such a URL is never a file URL.
        let scheme = url.scheme
        if scheme == "https" || scheme == "http" { return .webURL }
        if url.isFileURL { return .fileURL(UTType.type(ofFileAt: url)) }
        let lowered = scheme?.lowercased() ?? ""
        if lowered == "http" || lowered == "https" { return .webURL }
        return .schemeURL(lowered)
    }

    /// True for an image, image file, or image data.
    public var isImage: Bool { contentType?.conforms(to: .image) ?? false }
    /// True for a video file, video data, or video asset.
    public var isVideo: Bool { contentType?.conforms(to: .movie) ?? false }

    /// The content type of a file, data, image or asset item.
    public var contentType: UTType? {
        switch self {
        case .fileURL(let type), .data(let type, _), .image(let type), .asset(let type): return type
        default: return nil
        }
    }

    /// A short phrase for people: "image file (public.jpeg)".
    public var description: String {
        switch self {
        case .string: return "text"
        case .attributedString: return "attributed text"
        case .webURL: return "web link"
        case .fileURL(let type): return "\(Self.noun(for: type)) file (\(type.identifier))"
        case .schemeURL(let scheme): return "\(scheme): link"
        case .data(let type, let declared):
            return declared ? "data (\(type.identifier))" : "untyped data (looks like \(type.identifier))"
        case .image(let type): return "image (\(type.identifier))"
        case .asset(let type): return "library asset (\(type.identifier))"
        case .color: return "color"
        case .dictionary: return "dictionary"
        case .array(let kinds): return "array of \(kinds.count)"
        case .printInfo: return "print info"
        case .printFormatter: return "print formatter"
        case .printPageRenderer: return "print page renderer"
        case .other(let name): return name
        }
    }

    private static func noun(for type: UTType) -> String {
        if type.conforms(to: .image) { return "image" }
        if type.conforms(to: .movie) { return "video" }
        if type.conforms(to: .audio) { return "audio" }
        if type.conforms(to: .pdf) { return "PDF" }
        if type.conforms(to: .text) { return "text" }
        if type.conforms(to: .folder) { return "folder" }
        return "data"
    }
}
