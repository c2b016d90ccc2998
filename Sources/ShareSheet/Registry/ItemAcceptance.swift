import UniformTypes

/// Which item kinds an activity accepts: one row of SPEC §1.7's table.
public struct ItemAcceptance: Sendable {
    /// A phrase for people: "text, web links, images".
    public let summary: String
    private let rule: @Sendable (ItemKind) -> Bool

    /// Describes a rule.
    public init(_ summary: String, accepts rule: @escaping @Sendable (ItemKind) -> Bool) {
        self.summary = summary
        self.rule = rule
    }

    /// True when an item of this kind is one the activity can use.
    public func accepts(_ kind: ItemKind) -> Bool { rule(kind) }

    /// True when an item is one the activity can use.
    public func accepts(item: Any) -> Bool { accepts(ItemKind.of(item)) }
}

extension ItemAcceptance {
    private static func isImageOrVideo(_ type: UTType) -> Bool {
        type.conforms(to: .image) || type.conforms(to: .movie)
    }

    private static func isPrintable(_ type: UTType) -> Bool {
        type.conforms(to: .image) || type.conforms(to: .pdf) || type.conforms(to: .text)
    }

    /// Facebook and Twitter: text, links, images.
    public static let socialPost = ItemAcceptance("text, web links, images") { kind in
        switch kind {
        case .string, .attributedString, .webURL, .image: return true
        case .fileURL(let type): return type.conforms(to: .image)
        default: return false
        }
    }

    /// Weibo and Tencent Weibo: text, links, images, and library assets.
    public static let socialPostWithAssets = ItemAcceptance("text, web links, images, photos and videos") { kind in
        switch kind {
        case .string, .attributedString, .webURL, .image, .asset: return true
        case .fileURL(let type): return isImageOrVideo(type)
        default: return false
        }
    }

    /// Message: text, links, `sms:` URLs; files, images, typed data and assets as MMS
    /// attachments (images as Apple's documentation adds for MMS).
    public static let message = ItemAcceptance("text, web links, sms: links, files, images, typed data, assets") { kind in
        switch kind {
        case .string, .attributedString, .webURL, .fileURL, .asset, .image: return true
        case .schemeURL(let scheme): return scheme == "sms"
        case .data(_, let declared): return declared
        default: return false
        }
    }

    /// Mail: text and links in the body; files, images and typed data as attachments.
    public static let mail = ItemAcceptance("text, web links, mailto: links, files, images, typed data") { kind in
        switch kind {
        case .string, .attributedString, .webURL, .fileURL, .image: return true
        case .schemeURL(let scheme): return scheme == "mailto"
        case .data(_, let declared): return declared
        default: return false
        }
    }

    /// Print: printable data and files, images, print info, formatters and page renderers; and,
    /// as issue #6 asks beyond the seed's table, text and attributed text.
    public static let print = ItemAcceptance("text, images, PDF and text files or data, print formatters and renderers") { kind in
        switch kind {
        case .string, .attributedString, .image, .printInfo, .printFormatter, .printPageRenderer: return true
        case .fileURL(let type), .data(let type, _): return isPrintable(type)
        default: return false
        }
    }

    /// Copy: text, URLs, images, colors, dictionaries.
    public static let copyToPasteboard = ItemAcceptance("text, URLs, images, colors, dictionaries") { kind in
        switch kind {
        case .string, .webURL, .fileURL, .schemeURL, .image, .color, .dictionary: return true
        default: return false
        }
    }

    /// Assign to Contact: images only.
    public static let assignToContact = ItemAcceptance("images only") { kind in
        switch kind {
        case .image: return true
        case .fileURL(let type): return type.conforms(to: .image)
        default: return false
        }
    }

    /// Save to Camera Roll: images, and image or video files only.
    public static let saveToCameraRoll = ItemAcceptance("images, image or video files only") { kind in
        switch kind {
        case .image: return true
        case .fileURL(let type): return isImageOrVideo(type)
        default: return false
        }
    }

    /// Add to Reading List: `http`/`https` URLs only.
    public static let addToReadingList = ItemAcceptance("http and https links only") { kind in
        kind == .webURL
    }

    /// Flickr: images and videos only, as images, files, data or assets.
    public static let flickr = ItemAcceptance("images (and videos) only") { kind in
        switch kind {
        case .image: return true
        case .fileURL(let type), .data(let type, _), .asset(let type): return isImageOrVideo(type)
        default: return false
        }
    }

    /// Vimeo: videos only, as files, data or assets.
    public static let vimeo = ItemAcceptance("videos only") { kind in
        switch kind {
        case .fileURL(let type), .data(let type, _), .asset(let type): return type.conforms(to: .movie)
        default: return false
        }
    }

    /// AirDrop: text, URLs, images, files, typed data, assets, and arrays or dictionaries of them.
    public static let airDrop = ItemAcceptance("text, URLs, files, images, typed data, assets, arrays of these") { kind in
        acceptsForAirDrop(kind)
    }

    private static func acceptsForAirDrop(_ kind: ItemKind) -> Bool {
        switch kind {
        case .string, .attributedString, .webURL, .fileURL, .schemeURL, .image, .asset, .dictionary: return true
        case .data(_, let declared): return declared
        case .array(let kinds): return !kinds.isEmpty && kinds.allSatisfy(acceptsForAirDrop)
        default: return false
        }
    }
}
