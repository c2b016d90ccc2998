import Foundation
import ShareSheet
import UniformTypes

/// One item as a header describes it: its title, summary, artwork, size, and the group that
/// names several items together ("2 photos").
struct PreviewedItem {
    /// What several items are called together.
    enum Group: Hashable {
        case photo, video, file, link, text, item

        /// "photo", "photos".
        func noun(count: Int) -> String {
            let singular: String
            switch self {
            case .photo: singular = "photo"
            case .video: singular = "video"
            case .file: singular = "file"
            case .link: singular = "link"
            case .text: singular = "text"
            case .item: singular = "item"
            }
            return count == 1 ? singular : singular + "s"
        }
    }

    var group: Group
    var title: String
    var summary: String
    var artwork: SharePreview.Artwork
    var byteCount: Int64?
    /// A web link's host, without `www.`.
    var host: String?
    /// A text's length in characters.
    var characterCount: Int?

    /// Titles and text lines longer than this are cut, with an ellipsis.
    static let titleLength = 60

    /// Describes one item from its placeholder and its source's link metadata.
    @MainActor
    init(_ preview: ItemPreview) {
        self.init(value: preview.placeholder, kind: preview.kind)
        guard let metadata = preview.linkMetadata else { return }
        if let title = metadata.title?.trimmingCharacters(in: .whitespacesAndNewlines), !title.isEmpty {
            self.title = title
        }
        if let summary = metadata.summary?.trimmingCharacters(in: .whitespacesAndNewlines), !summary.isEmpty {
            self.summary = summary
        }
        // iOS's order: the page's image, then its icon, then the item's own picture.
        if let picture = Self.artwork(of: metadata.image) ?? Self.artwork(of: metadata.icon) {
            artwork = picture
        }
    }

    /// Describes a plain value of kind `kind`.
    init(value: Any, kind: ItemKind) {
        group = .item
        title = "Item"
        if case .other = kind {
            summary = "Item"
        } else {
            summary = kind.description.prefix(1).uppercased() + kind.description.dropFirst()
        }
        artwork = .icon(PreviewIcon.icon(for: kind))

        switch value {
        case let url as URL where url.isFileURL:
            describeFile(named: FileNames.shown(url.lastPathComponent), type: kind.contentType ?? .data, at: url)
        case let url as URL where kind == .webURL:
            describeLink(url)
        case let url as URL:
            describeSchemeURL(url, scheme: url.scheme?.lowercased() ?? "")
        case let text as String:
            describeText(text)
        case let text as Substring:
            describeText(String(text))
        case let text as AttributedString:
            describeText(String(text.characters))
        case let text as NSAttributedString:
            describeText(text.string)
        case let item as DataItem:
            describeBytes(item.data, named: item.filename, type: kind.contentType ?? item.type)
        case let data as Data:
            describeBytes(data, named: nil, type: kind.contentType ?? .data)
        case let image as Image:
            describeImage(image)
        case let asset as Asset:
            describeFile(named: FileNames.shown(asset.fileURL.lastPathComponent), type: asset.type, at: asset.fileURL)
        case let color as Color:
            title = color.hexString
            summary = "Color"
        case let dictionary as [String: Any]:
            title = "Dictionary"
            summary = Self.counted(dictionary.count, "entry", "entries")
        case let array as [Any]:
            title = "List"
            summary = Self.counted(array.count, "item", "items")
        case is PrintInfo, is PrintFormatter, is PrintPageRenderer:
            title = "Print job"
        default:
            break
        }
    }

    // MARK: Kinds of items

    private mutating func describeFile(named name: String, type: UTType, at url: URL) {
        title = name
        switch FileStatus.of(url) {
        case .directory:
            group = .file
            summary = "Folder"
            artwork = .icon(PreviewIcon.folder)
            return
        case .regular(let size):
            byteCount = size
        case .unknown:
            break
        }
        group = Self.group(of: type)
        summary = Self.sentence(Self.typeName(type), byteCount)
        if type.conforms(to: .image) { artwork = .imageFile(url) }
    }

    private mutating func describeBytes(_ data: Data, named name: String?, type: UTType) {
        group = name == nil && type == .data ? .item : Self.group(of: type)
        title = name ?? (type.conforms(to: .image) ? "Image" : "Data")
        byteCount = Int64(data.count)
        summary = Self.sentence(type == .data ? "Data" : Self.typeName(type), byteCount)
        if type.conforms(to: .image) { artwork = .imageData(data) }
    }

    private mutating func describeImage(_ image: Image) {
        group = .photo
        title = image.fileURL.map { FileNames.shown($0.lastPathComponent) } ?? "Image"
        if image.isEmpty {
            summary = "Image"
            return
        }
        if let fileURL = image.fileURL {
            if case .regular(let size) = FileStatus.of(fileURL) { byteCount = size }
            artwork = .imageFile(fileURL)
        } else if let data = image.encodedData {
            // In memory: the bytes are there already, nothing is read.
            byteCount = Int64(data.count)
            artwork = .imageData(data)
        }
        summary = Self.sentence(Self.typeName(image.type), byteCount)
    }

    private mutating func describeLink(_ url: URL) {
        group = .link
        let host = Self.displayHost(url)
        self.host = host
        var path = url.path
        while path.hasSuffix("/") { path.removeLast() }
        title = Self.shortened(host + path)
        summary = "Link to \(host)"
    }

    private mutating func describeSchemeURL(_ url: URL, scheme: String) {
        group = .link
        var target = String(url.absoluteString.dropFirst(scheme.count + 1))
        if let query = target.firstIndex(of: "?") { target = String(target[..<query]) }
        while target.hasPrefix("/") { target.removeFirst() }
        title = Self.shortened(target.removingPercentEncoding ?? target)
        if title.isEmpty { title = Self.shortened(url.absoluteString) }
        switch scheme {
        case "mailto": summary = "Email address"
        case "tel": summary = "Phone number"
        case "sms": summary = "Message recipient"
        case "geo": summary = "Location"
        default: summary = "Link (\(scheme):)"
        }
    }

    private mutating func describeText(_ text: String) {
        group = .text
        let firstLine = text.split(whereSeparator: \.isNewline)
            .lazy.map { $0.trimmingCharacters(in: .whitespaces) }
            .first { !$0.isEmpty }
        title = firstLine.map { Self.shortened($0) } ?? "Text"
        characterCount = text.count
        summary = "Text, " + Self.characters(text.count)
    }

    // MARK: Words

    /// "PNG image, 2.1 MB"; "PNG image" without a size.
    static func sentence(_ typeName: String, _ byteCount: Int64?) -> String {
        guard let byteCount else { return typeName }
        return typeName + ", " + ByteCountFormat.string(byteCount)
    }

    /// GIO's description of the type with a capital first letter ("Plain text document"), or
    /// "File" when GIO has none.
    static func typeName(_ type: UTType) -> String {
        guard let description = type.localizedDescription, let first = description.first else { return "File" }
        return first.uppercased() + description.dropFirst()
    }

    static func group(of type: UTType) -> Group {
        if type.conforms(to: .image) { return .photo }
        if type.conforms(to: .movie) { return .video }
        return .file
    }

    /// "1 character", "120 characters".
    static func characters(_ count: Int) -> String { counted(count, "character", "characters") }

    static func counted(_ count: Int, _ singular: String, _ plural: String) -> String {
        "\(count) \(count == 1 ? singular : plural)"
    }

    /// The host as people say it: `www.swift.org` is `swift.org`.
    static func displayHost(_ url: URL) -> String {
        let host = url.host ?? ""
        return host.lowercased().hasPrefix("www.") ? String(host.dropFirst(4)) : host
    }

    /// `text` cut to `titleLength` characters, the last of them an ellipsis.
    static func shortened(_ text: String) -> String {
        guard text.count > titleLength else { return text }
        var cut = text.prefix(titleLength - 1)
        while cut.last?.isWhitespace == true { cut.removeLast() }
        return cut + "…"
    }

    /// A link-metadata image as artwork; nil for none or an empty placeholder image.
    static func artwork(of image: Image?) -> SharePreview.Artwork? {
        guard let image, !image.isEmpty else { return nil }
        if let fileURL = image.fileURL { return .imageFile(fileURL) }
        return image.encodedData.map(SharePreview.Artwork.imageData)
    }
}
