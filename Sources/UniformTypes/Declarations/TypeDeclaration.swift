/// One system-declared type: what Apple's `UTExportedTypeDeclarations` would say about it,
/// reduced to what GIO cannot tell us.
///
/// Only the identifier, its parents and the GIO content types it stands for are ours; extensions,
/// aliases, descriptions, sniffing and the MIME subclass tree come from shared-mime-info.
struct TypeDeclaration: Sendable {
    /// The reverse-DNS identifier, lowercase ("public.jpeg").
    var identifier: String
    /// The identifiers this type directly conforms to.
    var parents: [String]
    /// The MIME types (GIO content types) this identifier stands for, preferred first.
    var mimeTypes: [String]
    /// The extension users expect when GIO lists several ("jpg" rather than "jpe" or "jpeg");
    /// must be one of GIO's globs for `mimeTypes`.
    var preferredFilenameExtension: String?
    /// A GIO content type (or media-type wildcard such as `image/*`) whose GIO subtypes without a
    /// declared identifier of their own conform to this type.
    var umbrella: String?

    init(
        _ identifier: String, parents: [String] = [], mimeTypes: [String] = [],
        preferredFilenameExtension: String? = nil, umbrella: String? = nil
    ) {
        self.identifier = identifier
        self.parents = parents
        self.mimeTypes = mimeTypes
        self.preferredFilenameExtension = preferredFilenameExtension
        self.umbrella = umbrella
    }
}
