import Foundation
import ShareSheet
import UniformTypes

/// One thing on the pasteboard, in several representations (the same text as `text/plain` and
/// `UTF8_STRING`, an image as `image/jpeg` and `image/png`), best first.
///
/// Types are MIME types, the names X11 and Wayland clipboards use; `UTType` converts.
public struct PasteboardItem: Sendable, Equatable {
    /// One representation: a MIME type and the bytes.
    public struct Representation: Sendable, Equatable {
        /// The MIME type (`text/plain;charset=utf-8`, `image/png`).
        public var type: String
        /// The bytes.
        public var data: Data

        /// Makes a representation.
        public init(type: String, data: Data) {
            self.type = type
            self.data = data
        }
    }

    /// The representations, best first; each type at most once.
    public private(set) var representations: [Representation]

    /// Makes an item from representations; later ones with a type already given are dropped.
    public init(representations: [Representation]) {
        var seen = Set<String>()
        self.representations = representations.filter { seen.insert($0.type).inserted }
    }

    /// The types offered, best first.
    public var types: [String] { representations.map(\.type) }

    /// The bytes of a type, if offered.
    public func data(forType type: String) -> Data? {
        representations.first { $0.type == type }?.data
    }

    // MARK: Making items

    /// The MIME type of UTF-8 text.
    public static let utf8Text = "text/plain;charset=utf-8"
    /// The MIME type of plain text.
    public static let plainText = "text/plain"
    /// The MIME type of a URL list (RFC 2483).
    public static let uriList = "text/uri-list"
    /// The MIME type of PNG images.
    public static let png = "image/png"
    /// The MIME type of JSON.
    public static let json = "application/json"
    /// GTK's color type: red, green, blue, alpha as native-endian 16-bit numbers.
    public static let color = "application/x-color"
    /// GNOME's and KDE's "these files were copied" list, which file managers paste as files.
    public static let copiedFiles = "x-special/gnome-copied-files"

    /// Text: `text/plain;charset=utf-8` and `text/plain`.
    public init(string: String) {
        let data = Data(string.utf8)
        self.init(representations: [.init(type: Self.utf8Text, data: data), .init(type: Self.plainText, data: data)])
    }

    /// A URL: `text/uri-list` and the text (a local file's path); an image file adds its image
    /// representations, and any local file the file managers' copied-files list. A text file
    /// (UTF-8, up to `textFileLimit`) is offered as its contents instead of its path: pasted into
    /// an editor, the text is what people expect; its path stays in the URI list. A file whose
    /// name is not UTF-8 is copied by its real path, byte for byte (`RawPath`).
    /// - Throws: `ShareError(.noInput)` when an image file cannot be read.
    public init(url: URL) throws {
        let rawPath = RawPath.nonUTF8Target(of: url)
        let uri = rawPath.map(RawPath.fileURI) ?? url.absoluteString
        let uriList = Data((uri + "\r\n").utf8)
        var text = rawPath.map { Data($0) } ?? Data((url.isFileURL ? url.path : url.absoluteString).utf8)
        var representations: [Representation] = []
        let fileType = url.isFileURL ? UTType.type(ofFileAt: url) : nil
        if let fileType, fileType.conforms(to: .image) {
            let image = Image(contentsOfFile: url.path)
            if let image { representations += try Self.imageRepresentations(image) }
        } else if let fileType, fileType.conforms(to: .plainText), let contents = Self.textContents(of: url) {
            text = contents
        }
        representations.append(.init(type: Self.uriList, data: uriList))
        if url.isFileURL {
            representations.append(.init(type: Self.copiedFiles, data: Data("copy\n\(uri)".utf8)))
        }
        representations.append(.init(type: Self.utf8Text, data: text))
        representations.append(.init(type: Self.plainText, data: text))
        self.init(representations: representations)
    }

    /// An image: its own encoding, and PNG (converted with gdk-pixbuf when it is not PNG).
    /// - Throws: `ShareError(.badData)` when the image cannot be decoded for PNG.
    public init(image: Image) throws {
        self.init(representations: try Self.imageRepresentations(image))
    }

    /// A color: GTK's `application/x-color` and `#RRGGBB` text.
    public init(color: Color) {
        func component(_ value: Double) -> UInt16 { UInt16((min(max(value, 0), 1) * 65535).rounded()) }
        var bytes = Data()
        for value in [color.red, color.green, color.blue, color.alpha] {
            withUnsafeBytes(of: component(value)) { bytes.append(contentsOf: $0) }
        }
        let text = Data(color.hexString.utf8)
        self.init(representations: [
            .init(type: Self.color, data: bytes), .init(type: Self.utf8Text, data: text),
            .init(type: Self.plainText, data: text),
        ])
    }

    /// A dictionary: `application/json` (keys sorted), and the same JSON as text.
    /// - Throws: `ShareError(.badData)` when a value cannot be written as JSON.
    public init(dictionary: [String: Any]) throws {
        guard JSONSerialization.isValidJSONObject(dictionary),
            let json = try? JSONSerialization.data(withJSONObject: dictionary, options: [.sortedKeys, .prettyPrinted])
        else { throw ShareError(.badData, "dictionary: not representable as JSON") }
        self.init(representations: [
            .init(type: Self.json, data: json), .init(type: Self.utf8Text, data: json),
            .init(type: Self.plainText, data: json),
        ])
    }

    /// Any item Copy accepts: text, a URL, an `Image`, a `Color`, a dictionary.
    /// - Throws: `ShareError(.badData)` for anything else.
    public init(_ item: Any) throws {
        switch item {
        case let string as String: self.init(string: string)
        case let substring as Substring: self.init(string: String(substring))
        case let url as URL: try self.init(url: url)
        case let image as Image: try self.init(image: image)
        case let color as Color: self.init(color: color)
        case let dictionary as [String: Any]: try self.init(dictionary: dictionary)
        default: throw ShareError(.badData, "\(ItemKind.of(item)): cannot be copied")
        }
    }

    /// The largest text file offered as its contents (16 MiB); a larger one is offered by path.
    public static let textFileLimit = 16 << 20

    /// A text file's bytes when they are UTF-8 and within `textFileLimit`.
    private static func textContents(of url: URL) -> Data? {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber,
            size.intValue <= textFileLimit, let data = FileManager.default.contents(atPath: url.path),
            String(validating: data, as: UTF8.self) != nil
        else { return nil }
        return data
    }

    static func imageRepresentations(_ image: Image) throws -> [Representation] {
        guard let data = image.encodedData, !data.isEmpty else {
            throw ShareError(.noInput, "\(image.fileURL?.path ?? "image"): cannot read the image")
        }
        let own = image.type.preferredMIMEType ?? UTType.type(ofData: data).preferredMIMEType ?? "application/octet-stream"
        if own == png { return [.init(type: png, data: data)] }
        let converted = try ImageConverter.png(from: data, label: image.fileURL?.path ?? "image")
        return [.init(type: own, data: data), .init(type: png, data: converted)]
    }
}
