/// The identifier scheme for types that have no declared identifier.
///
/// - `dyn.mime.<MIME type>`: a MIME type GIO gave us, in GIO's canonical spelling
///   (`dyn.mime.application/vnd.oasis.opendocument.text`).
/// - `dyn.ext.<extension>`: a filename extension GIO knows no MIME type for, lowercased
///   (`dyn.ext.recipe`).
///
/// Both decode back to what they encode, so `UTType(_:)` recreates the type. The `dyn.` prefix is
/// Apple's namespace for dynamic identifiers; the rest is ours and readable on purpose.
enum DynamicIdentifier: Hashable, Sendable {
    case mimeType(String)
    case filenameExtension(String)

    static let mimeTypePrefix = "dyn.mime."
    static let filenameExtensionPrefix = "dyn.ext."

    /// Decodes an identifier in this scheme (the prefix is matched case-insensitively); `nil` for
    /// anything else.
    init?(parsing identifier: String) {
        let lowered = identifier.lowercased()
        if lowered.hasPrefix(Self.mimeTypePrefix) {
            let payload = String(identifier.dropFirst(Self.mimeTypePrefix.count))
            guard !payload.isEmpty else { return nil }
            self = .mimeType(payload)
        } else if lowered.hasPrefix(Self.filenameExtensionPrefix) {
            let payload = String(identifier.dropFirst(Self.filenameExtensionPrefix.count))
            guard !payload.isEmpty else { return nil }
            self = .filenameExtension(payload)
        } else {
            return nil
        }
    }

    /// The encoded identifier.
    var identifier: String {
        switch self {
        case .mimeType(let mimeType): Self.mimeTypePrefix + mimeType
        case .filenameExtension(let name): Self.filenameExtensionPrefix + name.lowercased()
        }
    }
}
