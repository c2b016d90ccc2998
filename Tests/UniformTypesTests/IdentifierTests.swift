import Testing
import UniformTypes

@Suite("Identifiers")
struct IdentifierTests {
    @Test("Declared identifiers give declared types")
    func declared() throws {
        let jpeg = try #require(UTType("public.jpeg"))
        #expect(jpeg == .jpeg)
        #expect(jpeg.isDeclared)
        #expect(!jpeg.isDynamic)
        #expect(UTType("PUBLIC.JPEG") == .jpeg)
        #expect(UTType("com.adobe.pdf") == .pdf)
    }

    @Test("Unknown identifiers give nil")
    func unknown() {
        #expect(UTType("public.not-a-type") == nil)
        #expect(UTType("") == nil)
        #expect(UTType("dyn.mime.") == nil)
        #expect(UTType("dyn.mime.nonsense") == nil)
        #expect(UTType("dyn.ext.") == nil)
        #expect(UTType("dyn.AgvXa") == nil)
    }

    @Test("A dynamic identifier for something declared gives the declared type")
    func dynamicIdentifiersCanonicalise() {
        #expect(UTType("dyn.mime.image/jpeg") == .jpeg)
        #expect(UTType("dyn.ext.jpg") == .jpeg)
    }

    @Test("The constants carry Apple's identifiers")
    func constants() {
        let expected: [(UTType, String)] = [
            (.item, "public.item"), (.content, "public.content"),
            (.compositeContent, "public.composite-content"), (.data, "public.data"),
            (.directory, "public.directory"), (.folder, "public.folder"), (.text, "public.text"),
            (.plainText, "public.plain-text"), (.utf8PlainText, "public.utf8-plain-text"),
            (.rtf, "public.rtf"), (.html, "public.html"), (.xml, "public.xml"),
            (.json, "public.json"), (.sourceCode, "public.source-code"), (.url, "public.url"),
            (.fileURL, "public.file-url"), (.vCard, "public.vcard"), (.image, "public.image"),
            (.jpeg, "public.jpeg"), (.png, "public.png"), (.gif, "com.compuserve.gif"),
            (.tiff, "public.tiff"), (.bmp, "com.microsoft.bmp"), (.svg, "public.svg-image"),
            (.webP, "org.webmproject.webp"), (.heic, "public.heic"), (.heif, "public.heif"),
            (.rawImage, "public.camera-raw-image"), (.pdf, "com.adobe.pdf"),
            (.epub, "org.idpf.epub-container"), (.audiovisualContent, "public.audiovisual-content"),
            (.movie, "public.movie"), (.video, "public.video"), (.audio, "public.audio"),
            (.mpeg4Movie, "public.mpeg-4"), (.quickTimeMovie, "com.apple.quicktime-movie"),
            (.mpeg4Audio, "public.mpeg-4-audio"), (.mp3, "public.mp3"),
            (.wav, "com.microsoft.waveform-audio"), (.avi, "public.avi"),
            (.zip, "public.zip-archive"), (.archive, "public.archive"),
            (.gzip, "org.gnu.gnu-zip-archive"), (.spreadsheet, "public.spreadsheet"),
            (.presentation, "public.presentation"), (.calendarEvent, "public.calendar-event"),
            (.emailMessage, "public.email-message"), (.executable, "public.executable"),
            (.unixExecutable, "public.unix-executable"),
        ]
        for (type, identifier) in expected {
            #expect(type.identifier == identifier)
            #expect(UTType(identifier) == type)
            #expect(type.isDeclared)
        }
    }

    @Test("Equal types hash alike; different ones differ")
    func hashing() throws {
        let fromExtension = try #require(UTType(filenameExtension: "jpeg"))
        let fromMIMEType = try #require(UTType(mimeType: "image/jpeg"))
        #expect(Set([fromExtension, fromMIMEType, .jpeg]).count == 1)
        #expect(Set([UTType.jpeg, .png, .image]).count == 3)
    }
}
