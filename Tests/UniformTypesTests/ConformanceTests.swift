import Testing
import UniformTypes

@Suite("Conformance")
struct ConformanceTests {
    @Test("JPEG is an image, data, an item and content")
    func jpegConformsUpTheHierarchy() {
        for supertype in [UTType.image, .data, .item, .content] {
            #expect(
                UTType.jpeg.conforms(to: supertype), "public.jpeg should conform to \(supertype)")
        }
        #expect(UTType.jpeg.supertypes == [.image, .data, .item, .content])
    }

    @Test("Siblings and parents do not conform downwards")
    func noConformanceBetweenSiblingsOrDownwards() {
        #expect(!UTType.png.conforms(to: .jpeg))
        #expect(!UTType.jpeg.conforms(to: .png))
        #expect(!UTType.image.conforms(to: .jpeg))
        #expect(!UTType.jpeg.conforms(to: .text))
        #expect(!UTType.pdf.conforms(to: .image))
        #expect(!UTType.folder.conforms(to: .data))
    }

    @Test("Conformance is reflexive; sub- and supertype are not")
    func reflexivity() {
        #expect(UTType.jpeg.conforms(to: .jpeg))
        #expect(!UTType.jpeg.isSubtype(of: .jpeg))
        #expect(!UTType.jpeg.isSupertype(of: .jpeg))
        #expect(!UTType.jpeg.supertypes.contains(.jpeg))
    }

    @Test("Sub- and supertype mirror each other")
    func subAndSupertype() {
        #expect(UTType.jpeg.isSubtype(of: .image))
        #expect(UTType.image.isSupertype(of: .jpeg))
        #expect(!UTType.image.isSubtype(of: .jpeg))
        #expect(!UTType.jpeg.isSupertype(of: .image))
    }

    @Test("Movies, text and documents")
    func declaredHierarchy() {
        #expect(UTType.mpeg4Movie.conforms(to: .movie))
        #expect(UTType.mpeg4Movie.conforms(to: .audiovisualContent))
        #expect(!UTType.mpeg4Movie.conforms(to: .audio))
        #expect(UTType.video.conforms(to: .movie))
        #expect(UTType.mp3.conforms(to: .audio))
        #expect(UTType.plainText.conforms(to: .text))
        #expect(UTType.utf8PlainText.conforms(to: .plainText))
        #expect(UTType.html.conforms(to: .text))
        #expect(!UTType.html.conforms(to: .plainText))
        #expect(UTType.pdf.conforms(to: .data))
        #expect(UTType.pdf.conforms(to: .compositeContent))
        #expect(UTType.folder.conforms(to: .directory))
        #expect(UTType.folder.conforms(to: .item))
        #expect(UTType.epub.conforms(to: .zip))
        #expect(UTType.zip.conforms(to: .archive))
        #expect(UTType.unixExecutable.conforms(to: .executable))
        #expect(UTType.fileURL.conforms(to: .url))
        #expect(UTType.vCard.conforms(to: .contact))
    }

    @Test("A dynamic MIME type conforms through GIO's subclass tree")
    func dynamicConformanceFromGIO() throws {
        // shared-mime-info: application/vnd.oasis.opendocument.text is a subclass of
        // application/zip.
        let odt = try #require(UTType(mimeType: "application/vnd.oasis.opendocument.text"))
        #expect(odt.isDynamic)
        #expect(odt.conforms(to: .zip))
        #expect(odt.conforms(to: .archive))
        #expect(odt.conforms(to: .data))
        #expect(!odt.conforms(to: .text))
        #expect(!odt.conforms(to: .image))

        // text/x-csrc is text to GIO.
        let cSource = try #require(UTType(mimeType: "text/x-csrc"))
        #expect(cSource.conforms(to: .text))
        #expect(!cSource.conforms(to: .image))

        // Camera raw formats are subclasses of image/x-dcraw.
        let canonRaw = try #require(UTType(mimeType: "image/x-canon-cr2"))
        #expect(canonRaw.conforms(to: .rawImage))
        #expect(canonRaw.conforms(to: .image))
    }

    @Test("Dynamic MIME types conform by media type")
    func dynamicConformanceByMediaType() throws {
        let image = try #require(UTType(mimeType: "image/x-made-up"))
        #expect(image.conforms(to: .image))
        #expect(!image.conforms(to: .movie))
        let video = try #require(UTType(mimeType: "video/x-made-up"))
        #expect(video.conforms(to: .movie))
        #expect(video.conforms(to: .audiovisualContent))
        let audio = try #require(UTType(mimeType: "audio/x-made-up"))
        #expect(audio.conforms(to: .audio))
        #expect(!audio.conforms(to: .movie))
        let other = try #require(UTType(mimeType: "application/x-made-up"))
        #expect(other.supertypes == [.data, .item])
    }

    @Test("Dynamic types conform to each other through GIO's subclass tree")
    func dynamicToDynamic() throws {
        // shared-mime-info: video/x-matroska is a subclass of application/x-matroska.
        let matroskaVideo = try #require(UTType(mimeType: "video/x-matroska"))
        let matroska = try #require(UTType(mimeType: "application/x-matroska"))
        #expect(matroska.isDynamic)
        #expect(matroskaVideo.conforms(to: matroska))
        #expect(matroska.isSupertype(of: matroskaVideo))
        #expect(!matroska.conforms(to: matroskaVideo))
        #expect(matroskaVideo.conforms(to: .movie))

        // An OpenDocument template is a zip file, not an OpenDocument text.
        let odt = try #require(UTType(mimeType: "application/vnd.oasis.opendocument.text"))
        let template = try #require(
            UTType(mimeType: "application/vnd.oasis.opendocument.text-template"))
        #expect(template.conforms(to: .zip))
        #expect(!template.conforms(to: odt))
        #expect(!UTType.png.conforms(to: odt))

        // The flat-XML variant is XML.
        let flatODT = try #require(
            UTType(mimeType: "application/vnd.oasis.opendocument.text-flat-xml"))
        #expect(flatODT.conforms(to: .xml))
        #expect(!flatODT.conforms(to: .zip))
    }

    @Test("Unknown extensions are data")
    func dynamicExtensionConformance() throws {
        let recipe = try #require(UTType(filenameExtension: "recipe"))
        #expect(recipe.supertypes == [.data, .item])
        #expect(recipe.conforms(to: .data))
        #expect(!recipe.conforms(to: .text))
    }

    @Test("Directory-like MIME types are items, not data")
    func inodeTypes() throws {
        let mountPoint = try #require(UTType(mimeType: "inode/mount-point", conformingTo: .item))
        #expect(mountPoint.conforms(to: .folder))
        #expect(!mountPoint.conforms(to: .data))
        #expect(UTType(mimeType: "inode/mount-point") == nil)
    }
}
