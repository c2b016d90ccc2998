import Foundation

/// Checking and normalising MIME type names before they reach GIO.
enum MIMETypeNames {
    /// The `type/subtype` part of a MIME type, without parameters or surrounding whitespace
    /// (`text/plain; charset=utf-8` → `text/plain`); `nil` unless both parts are RFC 6838 names.
    static func essence(of mimeType: String) -> String? {
        let withoutParameters = mimeType.split(
            separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let essence = withoutParameters.trimmingCharacters(in: .whitespaces)
        let parts = essence.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy(isRestrictedName) else { return nil }
        return essence
    }

    /// GIO's canonical content type for a valid essence: matched case-insensitively against the
    /// registered names, with aliases resolved (`IMAGE/PJPEG` → `image/jpeg`). Unregistered names
    /// come back lowercased.
    static func contentType(forEssence essence: String) -> String {
        let spelled = MIMEDatabase.shared.registeredSpelling(of: essence) ?? essence.lowercased()
        return GIOContentTypes.contentType(forMIMEType: spelled) ?? spelled
    }

    /// RFC 6838 `restricted-name`: starts with a letter or digit, at most 127 characters of
    /// letters, digits and `!#$&-^_.+`.
    private static func isRestrictedName(_ name: Substring) -> Bool {
        guard let first = name.unicodeScalars.first, name.unicodeScalars.count <= 127,
            isASCIIAlphanumeric(first)
        else { return false }
        return name.unicodeScalars.allSatisfy {
            isASCIIAlphanumeric($0) || "!#$&-^_.+".unicodeScalars.contains($0)
        }
    }

    private static func isASCIIAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }
}
