/// A kind of tag that names a type outside the identifier system: a filename extension or a MIME
/// type.
public struct UTTagClass: RawRepresentable, Hashable, Sendable {
    /// The tag class's identifier, such as `public.filename-extension`.
    public let rawValue: String

    /// Creates a tag class from its identifier.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Filename extensions without the leading dot ("jpg").
    public static let filenameExtension = UTTagClass(rawValue: "public.filename-extension")

    /// MIME types ("image/jpeg").
    public static let mimeType = UTTagClass(rawValue: "public.mime-type")
}
