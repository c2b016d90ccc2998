import Foundation
import LocalTestSupport
import Pasteboard
import ShareSheet
import Testing

@Suite("Pasteboard items: the representations each kind of item offers")
struct PasteboardItemTests {
    @Test("text offers UTF-8 and plain text with the same bytes")
    func text() {
        let item = PasteboardItem(string: "héllo")
        #expect(item.types == ["text/plain;charset=utf-8", "text/plain"])
        #expect(item.data(forType: "text/plain") == Data("héllo".utf8))
    }

    @Test("a web link offers text/uri-list (CRLF-ended) and its text")
    func webLink() throws {
        let item = try PasteboardItem(url: URL(string: "https://swift.org/blog?a=1")!)
        #expect(item.types == ["text/uri-list", "text/plain;charset=utf-8", "text/plain"])
        #expect(item.data(forType: "text/uri-list") == Data("https://swift.org/blog?a=1\r\n".utf8))
        #expect(item.data(forType: "text/plain") == Data("https://swift.org/blog?a=1".utf8))
    }

    @Test("a JPEG file offers its own bytes, a PNG decoded from it, its link, the copied-files list and its path")
    func imageFile() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let file = try home.file("a b;c.jpg", Fixtures.jpeg)
        let item = try PasteboardItem(url: file)
        #expect(item.types == ["image/jpeg", "image/png", "text/uri-list", "x-special/gnome-copied-files", "text/plain;charset=utf-8", "text/plain"])
        #expect(item.data(forType: "image/jpeg") == Fixtures.jpeg)
        let png = try #require(item.data(forType: "image/png"))
        let image = try #require(Image(data: png))
        #expect(image.type == .png)
        #expect(image.size == CGSize(width: 4, height: 3))
        #expect(item.data(forType: "text/uri-list") == Data((file.absoluteString + "\r\n").utf8))
        #expect(item.data(forType: "x-special/gnome-copied-files") == Data("copy\n\(file.absoluteString)".utf8))
        #expect(item.data(forType: "text/plain") == Data(file.path.utf8))
    }

    @Test("a UTF-8 text file offers its contents as text, and its path in the link and copied-files lists; one not UTF-8 its path")
    func textFile() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let text = "Grüße\nzweite Zeile\n"
        let file = try home.file("notes.txt", Data(text.utf8))
        let item = try PasteboardItem(url: file)
        #expect(item.types == ["text/uri-list", "x-special/gnome-copied-files", "text/plain;charset=utf-8", "text/plain"])
        #expect(item.data(forType: "text/plain;charset=utf-8") == Data(text.utf8))
        #expect(item.data(forType: "text/plain") == Data(text.utf8))
        #expect(item.data(forType: "text/uri-list") == Data((file.absoluteString + "\r\n").utf8))
        let latin1 = try home.file("latin1.txt", Data([0x63, 0x61, 0x66, 0xE9]))
        #expect(try PasteboardItem(url: latin1).data(forType: "text/plain") == Data(latin1.path.utf8))
    }

    @Test("a PNG image is offered once, as itself; a broken JPEG is refused with a reason")
    func images() throws {
        let png = try PasteboardItem(image: try #require(Image(data: Fixtures.png)))
        #expect(png.types == ["image/png"])
        #expect(png.data(forType: "image/png") == Fixtures.png)
        let broken = Image(data: Fixtures.jpeg.prefix(40), type: .jpeg)
        let error = #expect(throws: ShareError.self) { try PasteboardItem(image: broken) }
        #expect(error?.kind == .badData)
    }

    @Test("a color offers GTK's application/x-color and #RRGGBB text")
    func color() {
        let item = PasteboardItem(color: Color(red: 1, green: 0.5, blue: 0, alpha: 1))
        #expect(item.types == ["application/x-color", "text/plain;charset=utf-8", "text/plain"])
        let expected: [UInt16] = [65535, 32768, 0, 65535]
        #expect(item.data(forType: "application/x-color") == expected.withUnsafeBytes { Data($0) })
        #expect(item.data(forType: "text/plain") == Data("#FF8000".utf8))
    }

    @Test("a dictionary offers application/json that parses back to the same values")
    func dictionary() throws {
        let item = try PasteboardItem(dictionary: ["name": "Ana", "count": 3, "tags": ["a", "b"]])
        #expect(item.types.first == "application/json")
        let json = try #require(item.data(forType: "application/json"))
        let parsed = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect(parsed["name"] as? String == "Ana")
        #expect(parsed["count"] as? Int == 3)
        #expect(parsed["tags"] as? [String] == ["a", "b"])
        #expect(throws: ShareError.self) { try PasteboardItem(dictionary: ["date": Date()]) }
    }

    @Test("several items merge into one: every URL in the list, text joined by lines, other types from the first")
    func merged() throws {
        let first = try PasteboardItem(url: URL(string: "https://a.example/")!)
        let second = try PasteboardItem(url: URL(string: "https://b.example/")!)
        let merged = PasteboardItem.merged([first, second, PasteboardItem(color: .red)])
        #expect(merged.data(forType: "text/uri-list") == Data("https://a.example/\r\nhttps://b.example/\r\n".utf8))
        #expect(merged.data(forType: "text/plain") == Data("https://a.example/\nhttps://b.example/\n#FF0000".utf8))
        #expect(merged.types.contains("application/x-color"))
    }
}
