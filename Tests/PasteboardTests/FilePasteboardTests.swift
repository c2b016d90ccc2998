import Foundation
import LocalTestSupport
import Pasteboard
import ShareSheet
import ShareSheetSystem
import Testing

@Suite("Without a display: the file-backed pasteboard and share paste")
struct FilePasteboardTests {
    @Test("the automatic backend is the file under $XDG_DATA_HOME/sharesheet without DISPLAY or WAYLAND_DISPLAY")
    func automatic() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let backend = Pasteboard.automaticBackend(environment: home.environment)
        let file = try #require(backend as? FilePasteboard)
        #expect(file.file.path == home.home.appendingPathComponent("data/sharesheet/pasteboard.json").path)
    }

    @Test("items round-trip through the file, which is replaced whole and readable only by its owner")
    func roundTrip() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let backend = FilePasteboard(folder: home.root.appendingPathComponent("store"))
        let pasteboard = Pasteboard(backend: backend)
        pasteboard.string = "first"
        #expect(pasteboard.string == "first")
        pasteboard.urls = [URL(string: "https://swift.org")!, URL(string: "https://example.com/x")!]
        #expect(pasteboard.urls == [URL(string: "https://swift.org")!, URL(string: "https://example.com/x")!])
        #expect(pasteboard.string == "https://swift.org\nhttps://example.com/x")
        try pasteboard.setItems([PasteboardItem(color: .blue)])
        #expect(pasteboard.color == .blue)
        #expect(try backend.items().count == 1)
        var info = stat()
        #expect(stat(backend.file.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(home.entries(backend.file.deletingLastPathComponent()) == ["pasteboard.json"])
    }

    @Test("share --activity copy, then share paste returns what was copied (text, link list, PNG bytes)")
    func commandLine() async throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let empty = try await Share.run(["paste"], home: home)
        #expect(empty.status == 66)
        #expect(empty.standardError.contains("the pasteboard is empty"))

        let copied = try await Share.run(["--activity", "copy", "--text", "line one\nline two"], home: home)
        #expect(copied.status == 0, "\(copied.standardError)")
        let pasted = try await Share.run(["paste"], home: home)
        #expect(pasted.status == 0)
        #expect(pasted.standardOutput == "line one\nline two")

        let png = try home.file("a b;c.png", Fixtures.png)
        #expect(try await Share.run(["--activity", "copy", png.path], home: home).status == 0)
        let types = try await Share.run(["paste", "--types"], home: home)
        #expect(types.standardOutput == "image/png\ntext/uri-list\nx-special/gnome-copied-files\ntext/plain;charset=utf-8\ntext/plain\n")
        #expect(try await Share.run(["paste", "--type", "image/png"], home: home).output == Fixtures.png)
        #expect(try await Share.run(["paste", "--type", "public.png"], home: home).output == Fixtures.png)
        #expect(try await Share.run(["paste", "--type", "text/uri-list"], home: home).standardOutput == png.absoluteString + "\r\n")
        let missing = try await Share.run(["paste", "--type", "image/jpeg"], home: home)
        #expect(missing.status == 66)
        #expect(missing.standardError.contains("has no image/jpeg; it offers image/png"))
    }
}
