import Testing
import UniformTypes

@Suite("Tags")
struct TagTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var filenameExtension: String
        var mimeType: String
        var type: UTType
        var testDescription: String { filenameExtension }
    }

    static let cases: [Case] = [
        Case(filenameExtension: "jpg", mimeType: "image/jpeg", type: .jpeg),
        Case(filenameExtension: "png", mimeType: "image/png", type: .png),
        Case(filenameExtension: "pdf", mimeType: "application/pdf", type: .pdf),
        Case(filenameExtension: "txt", mimeType: "text/plain", type: .plainText),
        Case(filenameExtension: "mp4", mimeType: "video/mp4", type: .mpeg4Movie),
        Case(filenameExtension: "mov", mimeType: "video/quicktime", type: .quickTimeMovie),
        Case(filenameExtension: "html", mimeType: "text/html", type: .html),
        Case(filenameExtension: "json", mimeType: "application/json", type: .json),
        Case(filenameExtension: "gif", mimeType: "image/gif", type: .gif),
        Case(filenameExtension: "zip", mimeType: "application/zip", type: .zip),
        Case(filenameExtension: "mp3", mimeType: "audio/mpeg", type: .mp3),
        Case(filenameExtension: "m4a", mimeType: "audio/mp4", type: .mpeg4Audio),
        Case(filenameExtension: "vcf", mimeType: "text/vcard", type: .vCard),
        Case(filenameExtension: "heic", mimeType: "image/heic", type: .heic),
    ]

    @Test("Extension → type → preferred extension", arguments: cases)
    func extensionRoundTrip(_ c: Case) throws {
        let type = try #require(UTType(filenameExtension: c.filenameExtension))
        #expect(type == c.type)
        #expect(type.identifier == c.type.identifier)
        #expect(type.preferredFilenameExtension == c.filenameExtension)
        #expect(type.isDeclared)
    }

    @Test("MIME type → type → preferred MIME type", arguments: cases)
    func mimeTypeRoundTrip(_ c: Case) throws {
        let type = try #require(UTType(mimeType: c.mimeType))
        #expect(type == c.type)
        #expect(type.preferredMIMEType == c.mimeType)
    }

    @Test("Tags list every extension and MIME type, preferred first")
    func tags() {
        let jpeg = UTType.jpeg.tags
        #expect(jpeg[.filenameExtension]?.first == "jpg")
        #expect(Set(jpeg[.filenameExtension] ?? []) == ["jpg", "jpeg", "jpe"])
        #expect(jpeg[.mimeType]?.first == "image/jpeg")
        #expect(jpeg[.mimeType]?.contains("image/pjpeg") == true)
        #expect(UTType.html.tags[.filenameExtension] == ["html", "htm"])
        #expect(UTType.image.tags.isEmpty)
        #expect(UTTagClass.filenameExtension.rawValue == "public.filename-extension")
        #expect(UTTagClass.mimeType.rawValue == "public.mime-type")
    }

    @Test("Extensions are matched case-insensitively")
    func uppercaseExtension() throws {
        #expect(UTType(filenameExtension: "JPG") == .jpeg)
        #expect(UTType(filenameExtension: "Pdf") == .pdf)
        #expect(UTType(filenameExtension: "MP4") == .mpeg4Movie)
        #expect(UTType(filenameExtension: "RECIPE") == UTType(filenameExtension: "recipe"))
        #expect(UTType(filenameExtension: "RECIPE")?.identifier == "dyn.ext.recipe")
    }

    @Test("Every glob GIO has for a type finds the type")
    func everyExtensionOfATypeFindsIt() {
        for type in [UTType.jpeg, .plainText, .mpeg4Movie, .html, .tiff] {
            for name in type.tags[.filenameExtension] ?? [] {
                #expect(UTType(filenameExtension: name) == type, "\(name) should be \(type)")
            }
        }
    }

    @Test("MIME aliases, case and parameters resolve to the declared type")
    func mimeTypeNormalisation() {
        #expect(UTType(mimeType: "image/pjpeg") == .jpeg)
        #expect(UTType(mimeType: "IMAGE/JPEG") == .jpeg)
        #expect(UTType(mimeType: "text/plain; charset=utf-8") == .plainText)
        #expect(UTType(mimeType: "text/xml") == .xml)
        #expect(UTType(mimeType: "application/x-pdf") == .pdf)
        #expect(UTType(mimeType: "application/octet-stream") == .data)
        #expect(UTType(mimeType: "inode/directory", conformingTo: .item) == .folder)
    }

    @Test("Malformed MIME types and extensions give nil")
    func malformedInput() {
        #expect(UTType(mimeType: "jpeg") == nil)
        #expect(UTType(mimeType: "") == nil)
        #expect(UTType(mimeType: "image/") == nil)
        #expect(UTType(mimeType: "image/jpeg/x") == nil)
        #expect(UTType(mimeType: "image/jp eg") == nil)
        #expect(UTType(filenameExtension: "") == nil)
        #expect(UTType(filenameExtension: ".jpg") == nil)
        #expect(UTType(filenameExtension: "a/b") == nil)
    }

    @Test("conformingTo filters the result")
    func conformingTo() {
        #expect(UTType(filenameExtension: "jpg", conformingTo: .image) == .jpeg)
        #expect(UTType(filenameExtension: "jpg", conformingTo: .text) == nil)
        #expect(UTType(mimeType: "text/html", conformingTo: .text) == .html)
        #expect(UTType(mimeType: "text/html", conformingTo: .movie) == nil)
        #expect(UTType(filenameExtension: "recipe", conformingTo: .text) == nil)
    }

    @Test("An unknown MIME type gives a dynamic type that round-trips")
    func unknownMIMEType() throws {
        let type = try #require(UTType(mimeType: "application/x-sharesheet-test"))
        #expect(type.isDynamic)
        #expect(!type.isDeclared)
        #expect(type.identifier == "dyn.mime.application/x-sharesheet-test")
        #expect(type.description == type.identifier)
        #expect(type.preferredMIMEType == "application/x-sharesheet-test")
        #expect(type.preferredFilenameExtension == nil)
        #expect(type.tags == [.mimeType: ["application/x-sharesheet-test"]])
        #expect(UTType(type.identifier) == type)
        #expect(UTType(mimeType: "Application/X-ShareSheet-Test") == type)
    }

    @Test("A MIME type GIO knows but we do not declare gives a dynamic type with GIO's tags")
    func knownUndeclaredMIMEType() throws {
        let odt = try #require(UTType(mimeType: "application/vnd.oasis.opendocument.text"))
        #expect(odt.identifier == "dyn.mime.application/vnd.oasis.opendocument.text")
        #expect(odt.preferredFilenameExtension == "odt")
        #expect(odt.preferredMIMEType == "application/vnd.oasis.opendocument.text")
        #expect(odt.localizedDescription == "ODT document")
        #expect(UTType(filenameExtension: "odt") == odt)
        #expect(UTType(odt.identifier) == odt)
    }

    @Test("An unknown extension gives a dynamic type that round-trips")
    func unknownExtension() throws {
        let type = try #require(UTType(filenameExtension: "recipe"))
        #expect(type.isDynamic)
        #expect(type.identifier == "dyn.ext.recipe")
        #expect(type.preferredFilenameExtension == "recipe")
        #expect(type.preferredMIMEType == nil)
        #expect(type.localizedDescription == nil)
        #expect(type.tags == [.filenameExtension: ["recipe"]])
        #expect(UTType("dyn.ext.recipe") == type)
    }

    @Test("Descriptions come from GIO")
    func descriptions() {
        #expect(UTType.jpeg.localizedDescription == "JPEG image")
        #expect(UTType.pdf.localizedDescription == "PDF document")
        #expect(UTType.folder.localizedDescription == "folder")
        #expect(UTType.image.localizedDescription == nil)
    }
}
