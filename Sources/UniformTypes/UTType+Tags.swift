extension UTType {
    /// The filename extension to give a file of this type ("jpg" for JPEG, "txt" for plain text).
    ///
    /// `nil` for abstract types such as `public.image`.
    public var preferredFilenameExtension: String? {
        if let preferred = declaration?.preferredFilenameExtension { return preferred }
        switch origin {
        case .filenameExtension(let name): return name
        case .mimeType(let mimeType):
            return Self.bestExtension(
                MIMEDatabase.shared.extensions(forMIMEType: mimeType), forMIMEType: mimeType)
        case .declared:
            guard let contentType = contentTypes.first else { return nil }
            return Self.bestExtension(
                MIMEDatabase.shared.extensions(forMIMEType: contentType), forMIMEType: contentType)
        }
    }

    /// The MIME type to label data of this type with ("image/jpeg").
    ///
    /// `nil` for abstract types and for extensions GIO knows no MIME type for.
    public var preferredMIMEType: String? {
        switch origin {
        case .declared: declaration?.mimeTypes.first
        case .mimeType(let mimeType): mimeType
        case .filenameExtension: nil
        }
    }

    /// Every filename extension (from shared-mime-info's globs) and MIME type (with aliases) of
    /// the type, preferred first. Tag classes with no tags are left out.
    public var tags: [UTTagClass: [String]] {
        var extensions: [String] = []
        var mimeTypes: [String] = []
        func add(_ tag: String, to list: inout [String]) {
            if !list.contains(tag) { list.append(tag) }
        }
        if let preferred = preferredFilenameExtension { add(preferred, to: &extensions) }
        if case .filenameExtension(let name) = origin { add(name, to: &extensions) }
        for mimeType in declaration?.mimeTypes ?? [] {
            add(mimeType, to: &mimeTypes)
        }
        for contentType in contentTypes {
            add(contentType, to: &mimeTypes)
            for alias in MIMEDatabase.shared.aliases(ofMIMEType: contentType) {
                add(alias, to: &mimeTypes)
            }
            for entry in MIMEDatabase.shared.extensions(forMIMEType: contentType) {
                add(entry.name, to: &extensions)
            }
        }
        var result: [UTTagClass: [String]] = [:]
        if !extensions.isEmpty { result[.filenameExtension] = extensions }
        if !mimeTypes.isEmpty { result[.mimeType] = mimeTypes }
        return result
    }

    /// GIO's description of the type ("JPEG image"), in the user's language where GIO has it.
    ///
    /// `nil` for abstract types and for extensions GIO knows no MIME type for.
    public var localizedDescription: String? {
        guard let contentType = contentTypes.first else { return nil }
        return GIOContentTypes.description(ofContentType: contentType)
    }

    /// Picks among GIO's globs when nothing is declared: the heaviest, then the one named like the
    /// MIME subtype (`x-`, `vnd.` and `+suffix` ignored), then lowercase ones, then the shortest,
    /// then alphabetical.
    private static func bestExtension(
        _ candidates: [MIMEDatabase.Extension], forMIMEType mimeType: String
    ) -> String? {
        guard let heaviest = candidates.map(\.weight).max() else { return nil }
        var subtype = Substring(mimeType.split(separator: "/").last ?? "").lowercased()[...]
        for prefix in ["x-", "vnd."] where subtype.hasPrefix(prefix) {
            subtype = subtype.dropFirst(prefix.count)
        }
        if let plus = subtype.firstIndex(of: "+") { subtype = subtype[..<plus] }
        let names = candidates.filter { $0.weight == heaviest }.map(\.name)
        if let named = names.first(where: { $0.lowercased() == subtype }) { return named }
        func isMixedCase(_ name: String) -> Int { name == name.lowercased() ? 0 : 1 }
        return names.min {
            (isMixedCase($0), $0.count, $0) < (isMixedCase($1), $1.count, $1)
        }
    }
}
