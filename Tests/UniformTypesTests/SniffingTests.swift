import Foundation
import LocalTestSupport
import Testing
import UniformTypes

@Suite("Type of files and data")
struct SniffingTests {
    static let pngBytes = Data([
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A,  // signature
        0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,  // IHDR chunk
        0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00,
    ])
    static let pdfBytes = Data("%PDF-1.4\n%\u{E2}\u{E3}\u{CF}\u{D3}\n1 0 obj\n<< >>\nendobj\n".utf8)
    static let textBytes = Data("Shopping list\n- milk\n- bread\n".utf8)
    static let binaryBytes = Data([0x00, 0xFF, 0x13, 0x37, 0x00, 0x01, 0xFE, 0x80, 0x00, 0x7F])

    /// A fresh directory, removed when `body` returns.
    private func withTemporaryDirectory(_ body: (URL) throws -> Void) throws {
        let directory = try TemporaryFolder.make("UniformTypesTests")
        defer { TemporaryFolder(existing: directory).remove() }
        try body(directory)
    }

    @Test(
        "Files without an extension are sniffed",
        arguments: [
            ("picture", pngBytes, UTType.png),
            ("document", pdfBytes, UTType.pdf),
            ("notes", textBytes, UTType.plainText),
            ("blob", binaryBytes, UTType.data),
        ])
    func sniffsContentWhenNameSaysNothing(name: String, bytes: Data, expected: UTType) throws {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent(name)
            try bytes.write(to: url)
            #expect(UTType.type(ofFileAt: url) == expected)
        }
    }

    @Test("A known extension wins over the content")
    func nameFirst() throws {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("looks-like-text.png")
            try Self.textBytes.write(to: url)
            #expect(UTType.type(ofFileAt: url) == .png)
        }
    }

    @Test("An unknown extension falls back to the content")
    func unknownExtensionSniffs() throws {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("report.final")
            try Self.pdfBytes.write(to: url)
            #expect(UTType.type(ofFileAt: url) == .pdf)

            let binary = directory.appendingPathComponent("dinner.recipe")
            try Self.binaryBytes.write(to: binary)
            #expect(UTType.type(ofFileAt: binary).identifier == "dyn.ext.recipe")
        }
    }

    @Test("An uppercase extension is recognised")
    func uppercaseExtension() throws {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("HOLIDAY.JPG")
            try Self.binaryBytes.write(to: url)
            #expect(UTType.type(ofFileAt: url) == .jpeg)
        }
    }

    @Test("A directory is a folder")
    func directory() throws {
        try withTemporaryDirectory { directory in
            #expect(UTType.type(ofFileAt: directory) == .folder)
            let named = directory.appendingPathComponent("Photos.jpg", isDirectory: true)
            try FileManager.default.createDirectory(at: named, withIntermediateDirectories: false)
            #expect(UTType.type(ofFileAt: named) == .folder)
        }
    }

    @Test("An ELF binary is a Unix executable")
    func executable() {
        // The running test binary, under a name without an extension.
        #expect(UTType.type(ofFileAt: URL(fileURLWithPath: "/proc/self/exe")) == .unixExecutable)
    }

    @Test("A missing file goes by its name")
    func missingFile() throws {
        try withTemporaryDirectory { directory in
            #expect(UTType.type(ofFileAt: directory.appendingPathComponent("gone.pdf")) == .pdf)
            #expect(UTType.type(ofFileAt: directory.appendingPathComponent("gone")) == .data)
            #expect(
                UTType.type(ofFileAt: directory.appendingPathComponent("gone.recipe")).identifier
                    == "dyn.ext.recipe")
        }
    }

    @Test("Data is sniffed, with the file name if given")
    func data() {
        #expect(UTType.type(ofData: Self.pngBytes) == .png)
        #expect(UTType.type(ofData: Self.pdfBytes) == .pdf)
        #expect(UTType.type(ofData: Self.textBytes) == .plainText)
        #expect(UTType.type(ofData: Self.binaryBytes) == .data)
        #expect(UTType.type(ofData: Data()) == .data)
        #expect(UTType.type(ofData: Self.binaryBytes, filename: "clip.mp4") == .mpeg4Movie)
        #expect(UTType.type(ofData: Self.textBytes, filename: "index.html") == .html)
        #expect(
            UTType.type(ofData: Self.binaryBytes, filename: "x.recipe").identifier
                == "dyn.ext.recipe")
    }
}
