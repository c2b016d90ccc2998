import ShareSheet
import ShareTargets
import Testing
import UniformTypes

@Suite("X-ShareSheet-Accepts: types, MIME types and count limits")
struct TargetAcceptsTests {
    @Test("each form of a count limit")
    func countLimits() throws {
        let accepts = try TargetAccepts(parsing: "public.image[1-10]; text/plain ;image/*[2-];public.url[3]")
        #expect(accepts.rules.map(\.pattern) == ["public.image", "text/plain", "image/*", "public.url"])
        #expect(accepts.rules.map(\.minimum) == [1, 1, 2, 3])
        #expect(accepts.rules.map(\.maximum) == [10, nil, nil, 3])
        #expect(accepts.rules[0].summary == "images (public.image, at most 10)")
        #expect(accepts.rules[2].summary == "image files (image/*, 2 or more)")
        #expect(accepts.rules[3].summary == "links (public.url, exactly 3)")
    }

    @Test("which item kinds each pattern takes")
    func matching() throws {
        let png = UTType("public.png")!
        let pdf = UTType("com.adobe.pdf")!
        let images = try TargetAccepts(parsing: "public.image")
        #expect(images.accepts(.fileURL(png)))
        #expect(images.accepts(.image(png)))
        #expect(!images.accepts(.fileURL(pdf)))
        #expect(!images.accepts(.string))
        let mime = try TargetAccepts(parsing: "application/pdf")
        #expect(mime.accepts(.fileURL(pdf)) && mime.accepts(.data(pdf, declared: true)))
        #expect(!mime.accepts(.fileURL(png)))
        let wildcard = try TargetAccepts(parsing: "image/*")
        #expect(wildcard.accepts(.fileURL(png)) && !wildcard.accepts(.fileURL(pdf)))
        let text = try TargetAccepts(parsing: "text/plain")
        #expect(text.accepts(.string) && text.accepts(.attributedString) && !text.accepts(.webURL))
        let links = try TargetAccepts(parsing: "public.url")
        #expect(links.accepts(.webURL) && links.accepts(.schemeURL("mailto")) && !links.accepts(.string))
        let files = try TargetAccepts(parsing: "public.file-url")
        #expect(files.accepts(.fileURL(pdf)) && !files.accepts(.webURL))
        #expect(!images.accepts(.color) && !images.accepts(.printInfo))
    }

    @Test("what is not a type or a limit is refused, naming it", arguments: [
        ("", "X-ShareSheet-Accepts lists no type"),
        ("public.image[", "public.image[: a count limit ends with ]"),
        ("public.image[a-3]", "public.image[a-3]: the count limit is not [N], [N-M] or [N-]"),
        ("public.image[5-2]", "public.image[5-2]: the count limit is not [N], [N-M] or [N-]"),
        ("public.image[0]", "public.image[0]: a count limit of 0 takes nothing"),
        ("images", "images: not a uniform type identifier or MIME type this system knows"),
        ("/*", "/*: not a uniform type identifier or MIME type this system knows"),
    ])
    func refused(value: String, message: String) {
        #expect(throws: TargetEntryProblem(message)) { try TargetAccepts(parsing: value) }
    }
}
