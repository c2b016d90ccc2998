import Foundation
import UniformTypes

/// Bytes with a file name and a type, so they never arrive as an unnamed blob.
///
/// Raw `Data` shared on iOS turns up as a file called "data"; give it a name and a type here.
public struct DataItem: Sendable, CustomStringConvertible {
    /// The bytes.
    public var data: Data
    /// The file name the bytes should carry wherever they land.
    public var filename: String
    /// The uniform type identifier of the bytes.
    public var typeIdentifier: String

    /// Names and types some bytes. Without a type identifier the name's extension decides,
    /// then the content.
    public init(data: Data, filename: String, typeIdentifier: String? = nil) {
        self.data = data
        self.filename = filename
        self.typeIdentifier =
            typeIdentifier ?? UTType.type(ofData: data, filename: filename).identifier
    }

    /// The type, when the identifier is one UniformTypes knows.
    public var type: UTType { UTType(typeIdentifier) ?? .data }

    public var description: String { "\(filename) (\(typeIdentifier), \(data.count) bytes)" }
}

/// A photo or video kept in a library, by its file.
public struct Asset: Sendable, Hashable, CustomStringConvertible {
    /// The asset's file.
    public let fileURL: URL
    /// The asset's type, decided by content when the name says nothing.
    public let type: UTType

    /// Stands for the photo or video at `fileURL`.
    public init(fileURL: URL) {
        self.fileURL = fileURL
        type = UTType.type(ofFileAt: fileURL)
    }

    /// True when the asset is a video rather than a photo.
    public var isVideo: Bool { type.conforms(to: .movie) }

    public var description: String { "asset \(fileURL.lastPathComponent) (\(type.identifier))" }
}

/// A color in sRGB with alpha, each component in 0…1.
public struct Color: Sendable, Hashable, CustomStringConvertible {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    /// Makes a color from its components.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Makes a gray.
    public init(white: Double, alpha: Double = 1) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    public static let black = Color(white: 0)
    public static let white = Color(white: 1)
    public static let red = Color(red: 1, green: 0, blue: 0)
    public static let green = Color(red: 0, green: 1, blue: 0)
    public static let blue = Color(red: 0, green: 0, blue: 1)
    public static let clear = Color(white: 0, alpha: 0)

    /// `#RRGGBB`, or `#RRGGBBAA` when not opaque.
    public var hexString: String {
        func byte(_ value: Double) -> String {
            let clamped = Int((min(max(value, 0), 1) * 255).rounded())
            let digits = String(clamped, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }
        return "#" + byte(red) + byte(green) + byte(blue) + (alpha < 1 ? byte(alpha) : "")
    }

    public var description: String { hexString }
}

/// What the sheet's header shows for an item: the LPLinkMetadata equivalent.
open class LinkMetadata {
    /// The address the item was shared from.
    open var originalURL: URL?
    /// The address after redirects.
    open var url: URL?
    /// The page or document title.
    open var title: String?
    /// A short description of the content.
    open var summary: String?
    /// A small icon.
    open var icon: Image?
    /// A larger preview image.
    open var image: Image?

    /// Makes empty metadata to fill in.
    public init() {}
}
