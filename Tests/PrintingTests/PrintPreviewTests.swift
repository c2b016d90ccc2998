// Print's preview (issue #25): the first pages of the PDF that will be printed, drawn as PNG
// pictures with poppler, with the count of all the pages; sizes read back from the PNG header.

import Foundation
import LocalTestSupport
import Printing
import ShareSheet
import Testing

@MainActor
@Suite("Print's preview of the first pages")
struct PrintPreviewTests {
    /// PNG's eight-byte signature.
    private static let pngSignature = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])

    /// The preview of `items` through Print's interface, with `values` over its defaults.
    private func preview(of items: [Any], values: InterfaceValues = [:]) async throws -> PreviewPages {
        let activity = PrintActivity(service: PrintService(server: "127.0.0.1:\(try Loopback.freePort())"))
        activity.prepare(withActivityItems: items)
        let interface = try #require(activity.activityInterface)
        var chosen: InterfaceValues = [:]
        for field in interface.fields { chosen[field.id] = field.defaultValue }
        let render = try #require(interface.preview, "Print offers a preview")
        return try await render(chosen.merging(values) { _, given in given })
    }

    /// Width and height of a PNG from its IHDR chunk.
    private func size(of png: Data) -> (width: Int, height: Int) {
        let bytes = [UInt8](png)
        func number(at offset: Int) -> Int { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (number(at: 16), number(at: 20))
    }

    @Test("a text of many pages: two pictures are drawn, 360 px wide and A4-shaped, and the count is all the pages")
    func longTextDrawsTheFirstPages() async throws {
        let text = (1...400).map { "Line \($0) of a long memo that goes on for several pages." }.joined(separator: "\n")
        let pages = try await preview(of: [text])
        #expect(pages.images.count == 2)
        #expect(pages.pageCount > 2, "\(pages.pageCount)")
        for image in pages.images {
            #expect(image.prefix(8) == Self.pngSignature)
            let drawn = size(of: image)
            #expect(drawn.width == 360)
            #expect(abs(Double(drawn.height) / Double(drawn.width) - 297.0 / 210.0) < 0.01, "A4: \(drawn)")
        }
    }

    @Test("the paper chosen shapes the pictures: US Letter is wider for its height than A4")
    func paperShapesThePictures() async throws {
        let letter = try await preview(of: ["One page."], values: ["media": .choice("letter")])
        #expect(letter.pageCount == 1 && letter.images.count == 1)
        let drawn = size(of: try #require(letter.images.first))
        #expect(abs(Double(drawn.height) / Double(drawn.width) - 11.0 / 8.5) < 0.01, "Letter: \(drawn)")
    }

    @Test("no printer: Save as PDF is the one choice, and the button says Save PDF while it is chosen")
    func saveAsPDFNamesTheButton() async throws {
        let activity = PrintActivity(service: PrintService(server: "127.0.0.1:\(try Loopback.freePort())"))
        activity.prepare(withActivityItems: ["One page."])
        let interface = try #require(activity.activityInterface)
        let printer = try #require(interface.fields.first { $0.id == "printer" })
        guard case .choice(let options) = printer.kind else {
            Issue.record("the printer is a choice")
            return
        }
        #expect(options.current.map(\.title) == ["Save as PDF"])
        #expect(interface.submitTitle(for: ["printer": printer.defaultValue!]) == "Save PDF")
        #expect(interface.submitTitle(for: ["printer": .choice("Office")]) == "Print")
    }

    @Test("an item that cannot be printed gives no pictures but the error printing would give, naming it")
    func badItemFails() async throws {
        let folder = try TemporaryFolder("print-preview")
        defer { folder.remove() }
        let broken = folder.file("broken.pdf")
        try Data("%PDF-1.4\nnot really".utf8).write(to: broken)
        await #expect(throws: ShareError.self) { try await preview(of: [broken]) }
    }
}
