import Foundation
import ShareSheet

/// What a sheet's header shows of its items, the way iOS 13 draws it: a picture, a title and a
/// line under it ("3 files, 12 MB"). Every front end draws the same preview.
///
/// A preview is made from the sheet's item previews only: placeholders and the sources' link
/// metadata. It never starts a provider's work and never reads a file's contents; a file URL
/// costs one `stat` for its size.
public struct SharePreview: Sendable, Equatable, CustomStringConvertible {
    /// What picture to draw beside the title.
    public enum Artwork: Sendable, Equatable {
        /// An image file to scale down (the front end reads it, off its main thread).
        case imageFile(URL)
        /// Encoded image bytes already in memory (PNG, JPEG…).
        case imageData(Data)
        /// A freedesktop icon name that Adwaita draws (`image-x-generic-symbolic`).
        case icon(String)
    }

    /// The first line: a link's page title, a file's name, a link's address, the first line of a
    /// text; "3 files" for several items.
    public var title: String
    /// The line under the title: what the items are and how big ("PNG image, 2.1 MB").
    public var summary: String
    /// The picture: the source's image, else its icon, else an image item itself, else an icon
    /// for the type.
    public var artwork: Artwork
    /// The total size in bytes of the items whose size is known without reading them; nil when
    /// no item's size is known.
    public var byteCount: Int64?

    /// Makes a preview of given parts.
    public init(title: String, summary: String, artwork: Artwork, byteCount: Int64? = nil) {
        self.title = title
        self.summary = summary
        self.artwork = artwork
        self.byteCount = byteCount
    }

    /// The preview of a controller's items, from its sheet (built now if it was not yet).
    @MainActor
    public init(controller: ActivityViewController) {
        self.init(previews: controller.sheet.previews)
    }

    /// The preview of a sheet's items.
    @MainActor
    public init(sheet: ActivitySheet) {
        self.init(previews: sheet.previews)
    }

    /// The preview of some items, in item order.
    @MainActor
    public init(previews: [ItemPreview]) {
        self = Self.combined(previews.map(PreviewedItem.init))
    }

    /// "title — summary", for logs and test failures.
    public var description: String { "\(title) — \(summary)" }

    /// One item's own title, summary and artwork; several items' counts, kinds and total size.
    static func combined(_ items: [PreviewedItem]) -> SharePreview {
        guard let first = items.first else {
            return SharePreview(title: "No items", summary: "", artwork: .icon(PreviewIcon.documents))
        }
        let sizes = items.compactMap(\.byteCount)
        let total: Int64? = sizes.isEmpty ? nil : sizes.reduce(0, +)
        if items.count == 1 {
            return SharePreview(title: first.title, summary: first.summary, artwork: first.artwork, byteCount: total)
        }
        let groups = items.map(\.group)
        let distinct = Set(groups)
        var title = "\(items.count) \(PreviewedItem.Group.item.noun(count: items.count))"
        if distinct.count == 1 {
            title = "\(items.count) \(first.group.noun(count: items.count))"
        } else if distinct.isSubset(of: [.photo, .video]) {
            title = "\(items.count) photos and videos"
        } else if distinct.isSubset(of: [.photo, .video, .file]) {
            title = "\(items.count) files"
        }

        var summary: String
        if distinct == [.link] {
            summary = "Links to " + listed(unique(items.compactMap(\.host)), most: 3)
        } else {
            var counts: [(group: PreviewedItem.Group, count: Int)] = []
            for group in groups {
                if let index = counts.firstIndex(where: { $0.group == group }) {
                    counts[index].count += 1
                } else {
                    counts.append((group, 1))
                }
            }
            summary = counts.map { "\($0.count) \($0.group.noun(count: $0.count))" }.joined(separator: ", ")
            if distinct == [.text] {
                let characters = items.compactMap(\.characterCount).reduce(0, +)
                summary += ", " + PreviewedItem.characters(characters)
            }
            if let total { summary += ", " + ByteCountFormat.string(total) }
        }

        let artwork: Artwork
        switch distinct {
        case [.photo]: artwork = first.artwork
        case [.video]: artwork = .icon(PreviewIcon.video)
        case [.link]: artwork = .icon(PreviewIcon.webLink)
        case [.text]: artwork = .icon(PreviewIcon.text)
        default: artwork = .icon(PreviewIcon.documents)
        }
        return SharePreview(title: title, summary: summary, artwork: artwork, byteCount: total)
    }

    /// "a, b and c"; "a, b and 2 more" past `most` names.
    private static func listed(_ names: [String], most: Int) -> String {
        guard names.count > 1 else { return names.first ?? "" }
        if names.count > most {
            return names.prefix(most - 1).joined(separator: ", ") + " and \(names.count - most + 1) more"
        }
        return names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
    }

    private static func unique(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }
}
