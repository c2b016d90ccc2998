extension UTType {
    /// Whether the type is `other` or, directly or indirectly, a kind of `other`.
    ///
    /// Declared types conform along their declared parents. Dynamic MIME types conform to every
    /// declared type whose MIME type GIO says they are a kind of (an OpenDocument text is an
    /// `application/zip`, so a `public.zip-archive`), to `public.image`, `public.movie`,
    /// `public.audio` or `public.text` by media type (GIO counts every text as `text/plain`, so
    /// dynamic text types are also `public.plain-text`), and to other dynamic MIME types by GIO's
    /// subclass tree. Dynamic extension types conform to `public.data`.
    public func conforms(to other: UTType) -> Bool {
        if self == other { return true }
        if supertypes.contains(other) { return true }
        if case .mimeType(let otherContentType) = other.origin {
            return contentTypes.contains {
                GIOContentTypes.contentType($0, isA: otherContentType)
            }
        }
        return false
    }

    /// Whether `other` conforms to this type and is not this type.
    public func isSupertype(of other: UTType) -> Bool {
        self != other && other.conforms(to: self)
    }

    /// Whether this type conforms to `other` and is not `other`.
    public func isSubtype(of other: UTType) -> Bool {
        self != other && conforms(to: other)
    }

    /// The declared types this type conforms to, directly or indirectly, not including itself.
    public var supertypes: Set<UTType> {
        var result: Set<UTType> = []
        var pending = directSupertypeIdentifiers
        while let identifier = pending.popLast() {
            guard identifier != self.identifier,
                result.insert(UTType(declared: identifier)).inserted
            else { continue }
            pending.append(contentsOf: SystemDeclarations.byIdentifier[identifier]?.parents ?? [])
        }
        return result
    }

    /// The identifiers of the declared types this type directly conforms to.
    private var directSupertypeIdentifiers: [String] {
        switch origin {
        case .declared:
            return declaration?.parents ?? []
        case .filenameExtension:
            return ["public.data"]
        case .mimeType(let contentType):
            var result = ["public.item"]
            for declaration in SystemDeclarations.all {
                let patterns = declaration.mimeTypes + (declaration.umbrella.map { [$0] } ?? [])
                if patterns.contains(where: { GIOContentTypes.contentType(contentType, isA: $0) }) {
                    result.append(declaration.identifier)
                }
            }
            return result
        }
    }
}
