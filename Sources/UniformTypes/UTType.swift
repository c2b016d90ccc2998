import Foundation

/// A uniform type identifier: a name for a kind of data or file ("public.jpeg"), with its filename
/// extensions, MIME types and place in a conformance hierarchy.
///
/// Types come in two kinds:
/// - **declared** types carry one of Apple's system identifiers (`public.jpeg`, `com.adobe.pdf`);
/// - **dynamic** types stand for a MIME type or filename extension that has no declared identifier.
///   Their identifiers encode what they were made from: `dyn.mime.<MIME type>`
///   (`dyn.mime.application/vnd.oasis.opendocument.text`) or `dyn.ext.<extension>`
///   (`dyn.ext.recipe`), and `UTType(_:)` turns them back into the same type.
///
/// Everything beyond the declared identifiers and their parents comes from the shared-mime-info
/// database through GIO: extensions, MIME aliases, descriptions, content sniffing, and the MIME
/// subclass tree that places dynamic types.
public struct UTType: Hashable, Sendable, CustomStringConvertible {
    /// The type's identifier, such as `public.jpeg` or `dyn.mime.application/x-foo`.
    public let identifier: String

    /// What the type stands for; derived from `identifier`.
    let origin: Origin

    enum Origin: Hashable, Sendable {
        /// A system-declared identifier.
        case declared
        /// A GIO content type without a declared identifier.
        case mimeType(String)
        /// A filename extension GIO knows no MIME type for (lowercase).
        case filenameExtension(String)
    }

    /// The identifier.
    public var description: String { identifier }

    // MARK: Creating types

    /// Creates the type with a declared identifier, or the dynamic type a dynamic identifier
    /// encodes.
    ///
    /// Identifiers are matched case-insensitively. A dynamic identifier for something that has a
    /// declared type gives that declared type (`dyn.mime.image/jpeg` gives `public.jpeg`).
    /// - Parameter identifier: A declared identifier (`public.jpeg`) or one this module produced
    ///   (`dyn.mime.application/x-foo`, `dyn.ext.recipe`).
    /// - Returns: `nil` if the identifier is neither.
    public init?(_ identifier: String) {
        let lowered = identifier.lowercased()
        if SystemDeclarations.byIdentifier[lowered] != nil {
            self.init(declared: lowered)
            return
        }
        switch DynamicIdentifier(parsing: identifier) {
        case .mimeType(let mimeType):
            guard let type = UTType.forMIMEType(mimeType) else { return nil }
            self = type
        case .filenameExtension(let name):
            guard let type = UTType.forFilenameExtension(name) else { return nil }
            self = type
        case nil:
            return nil
        }
    }

    /// Creates the type for a filename extension, as GIO's globs classify it.
    ///
    /// Extensions are matched case-insensitively. An extension GIO does not know gives a dynamic
    /// type (`dyn.ext.recipe`) that conforms to `public.data`.
    /// - Parameters:
    ///   - filenameExtension: The extension without its leading dot ("jpg", "tar.gz").
    ///   - supertype: A type the result must conform to.
    /// - Returns: `nil` if the extension is empty, starts with a dot or contains a slash, or if
    ///   the type does not conform to `supertype`.
    public init?(filenameExtension: String, conformingTo supertype: UTType = .data) {
        guard let type = UTType.forFilenameExtension(filenameExtension),
            type.conforms(to: supertype)
        else { return nil }
        self = type
    }

    /// Creates the type for a MIME type.
    ///
    /// MIME types are matched case-insensitively, parameters are ignored (`text/plain;
    /// charset=utf-8`) and aliases resolved (`image/pjpeg` is `public.jpeg`). A well-formed MIME
    /// type without a declared identifier, known to GIO or not, gives a dynamic type.
    /// - Parameters:
    ///   - mimeType: A MIME type such as `image/jpeg`.
    ///   - supertype: A type the result must conform to.
    /// - Returns: `nil` if `mimeType` is not of the form `type/subtype`, or if the type does not
    ///   conform to `supertype`.
    public init?(mimeType: String, conformingTo supertype: UTType = .data) {
        guard let type = UTType.forMIMEType(mimeType), type.conforms(to: supertype) else {
            return nil
        }
        self = type
    }

    /// A declared type; the identifier must be in the table (lowercase).
    init(declared identifier: String) {
        precondition(
            SystemDeclarations.byIdentifier[identifier] != nil,
            "\(identifier) is not a declared identifier")
        self.identifier = identifier
        self.origin = .declared
    }

    /// A dynamic type.
    private init(dynamic: DynamicIdentifier) {
        self.identifier = dynamic.identifier
        switch dynamic {
        case .mimeType(let mimeType): self.origin = .mimeType(mimeType)
        case .filenameExtension(let name): self.origin = .filenameExtension(name.lowercased())
        }
    }

    // MARK: Identity

    /// Whether two values are the same type (their identifiers are equal).
    public static func == (lhs: UTType, rhs: UTType) -> Bool {
        lhs.identifier == rhs.identifier
    }

    /// Hashes the identifier.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(identifier)
    }

    /// Whether the type has no declared identifier.
    public var isDynamic: Bool { origin != .declared }

    /// Whether the type has a system-declared identifier.
    public var isDeclared: Bool { origin == .declared }

    /// The declaration behind a declared type.
    var declaration: TypeDeclaration? {
        origin == .declared ? SystemDeclarations.byIdentifier[identifier] : nil
    }

    /// The GIO content types the type stands for, canonical, preferred first.
    var contentTypes: [String] {
        switch origin {
        case .declared:
            var result: [String] = []
            for mimeType in declaration?.mimeTypes ?? [] {
                let contentType = GIOContentTypes.contentType(forMIMEType: mimeType) ?? mimeType
                if !result.contains(contentType) { result.append(contentType) }
            }
            return result
        case .mimeType(let mimeType): return [mimeType]
        case .filenameExtension: return []
        }
    }

    // MARK: Resolution

    /// The type for a MIME type, without a conformance check.
    static func forMIMEType(_ mimeType: String) -> UTType? {
        guard let essence = MIMETypeNames.essence(of: mimeType) else { return nil }
        if let identifier = SystemDeclarations.byDeclaredMIMEType[essence.lowercased()] {
            return UTType(declared: identifier)
        }
        return forContentType(
            MIMETypeNames.contentType(forEssence: essence), filenameExtension: nil)
    }

    /// The type for a filename extension, without a conformance check.
    static func forFilenameExtension(_ name: String) -> UTType? {
        guard !name.isEmpty, !name.hasPrefix("."), !name.contains("/"), !name.contains("\0")
        else { return nil }
        let guess = GIOContentTypes.guess(filename: "file." + name, data: nil)
        return forContentType(guess.contentType, filenameExtension: name)
    }

    /// The type for a content type GIO produced.
    ///
    /// GIO's "unknown" gives the dynamic type of `filenameExtension`, or `public.data` without
    /// one. When several declared types share the content type (GIO treats image/heic as
    /// image/heif), the one whose preferred extension is `filenameExtension` wins.
    static func forContentType(_ contentType: String, filenameExtension: String?) -> UTType {
        if GIOContentTypes.isUnknown(contentType) {
            guard let filenameExtension else { return .data }
            return UTType(dynamic: .filenameExtension(filenameExtension))
        }
        if let identifiers = SystemDeclarations.byContentType[contentType],
            let first = identifiers.first
        {
            let lowered = filenameExtension?.lowercased()
            let chosen =
                identifiers.first {
                    lowered != nil
                        && SystemDeclarations.byIdentifier[$0]?.preferredFilenameExtension
                            == lowered
                } ?? first
            return UTType(declared: chosen)
        }
        return UTType(dynamic: .mimeType(contentType))
    }
}
