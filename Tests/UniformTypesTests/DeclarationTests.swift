import Testing

@testable import UniformTypes

/// Checks the one table of our own against itself and against the installed shared-mime-info.
@Suite("System declarations")
struct DeclarationTests {
    @Test("Identifiers are unique and lowercase")
    func identifiers() {
        let identifiers = SystemDeclarations.all.map(\.identifier)
        #expect(Set(identifiers).count == identifiers.count)
        for identifier in identifiers {
            #expect(identifier == identifier.lowercased())
            #expect(!identifier.hasPrefix("dyn."))
        }
    }

    @Test("Every parent is declared, and every type reaches a root without cycles")
    func parents() {
        for declaration in SystemDeclarations.all {
            for parent in declaration.parents {
                #expect(
                    SystemDeclarations.byIdentifier[parent] != nil,
                    "\(declaration.identifier) → \(parent)")
            }
            let type = UTType(declared: declaration.identifier)
            #expect(!type.supertypes.contains(type), "cycle through \(declaration.identifier)")
            if declaration.identifier != "public.item" && declaration.identifier != "public.content"
            {
                #expect(
                    type.conforms(to: .item) || type.conforms(to: .content), "\(type) is rootless")
            }
        }
    }

    @Test("Every type with a MIME type is a concrete item")
    func concreteTypesAreData() {
        for declaration in SystemDeclarations.all where !declaration.mimeTypes.isEmpty {
            let type = UTType(declared: declaration.identifier)
            #expect(type.conforms(to: .data) || type.conforms(to: .directory), "\(type)")
        }
    }

    @Test("Declared MIME types are GIO's canonical names, or aliases another type declares")
    func mimeTypesAreCanonical() {
        let declaredMIMETypes = Set(SystemDeclarations.all.flatMap(\.mimeTypes))
        for declaration in SystemDeclarations.all {
            for mimeType in declaration.mimeTypes {
                #expect(
                    MIMEDatabase.shared.registeredSpelling(of: mimeType) != nil,
                    "\(mimeType) unknown to shared-mime-info")
                let canonical = GIOContentTypes.contentType(forMIMEType: mimeType)
                #expect(
                    canonical == mimeType || declaredMIMETypes.contains(canonical ?? ""),
                    "\(mimeType) → \(canonical ?? "nil")")
            }
        }
    }

    @Test("Types sharing a GIO content type are told apart by their preferred extension")
    func sharedContentTypes() {
        for (contentType, identifiers) in SystemDeclarations.byContentType
        where identifiers.count > 1 {
            let preferred = identifiers.map {
                SystemDeclarations.byIdentifier[$0]?.preferredFilenameExtension
            }
            #expect(!preferred.contains(nil), "\(contentType)")
            #expect(Set(preferred).count == identifiers.count, "\(contentType)")
        }
    }

    @Test("Each preferred extension is one of GIO's globs and leads back to the type")
    func preferredExtensions() {
        for declaration in SystemDeclarations.all {
            guard let preferred = declaration.preferredFilenameExtension else { continue }
            let type = UTType(declared: declaration.identifier)
            let globs = type.contentTypes.flatMap {
                MIMEDatabase.shared.extensions(forMIMEType: $0).map(\.name)
            }
            #expect(globs.contains(preferred), "\(preferred) is not a glob of \(type)")
            #expect(
                UTType(filenameExtension: preferred, conformingTo: .item) == type,
                "\(preferred) ↛ \(type)")
            #expect(type.preferredFilenameExtension == preferred)
        }
    }

    @Test("Each declared MIME type leads back to the type")
    func preferredMIMETypes() {
        for declaration in SystemDeclarations.all {
            guard let mimeType = declaration.mimeTypes.first else { continue }
            let type = UTType(declared: declaration.identifier)
            #expect(
                UTType(mimeType: mimeType, conformingTo: .item) == type, "\(mimeType) ↛ \(type)")
            #expect(type.preferredMIMEType == mimeType)
            #expect(type.localizedDescription?.isEmpty == false)
        }
    }
}
