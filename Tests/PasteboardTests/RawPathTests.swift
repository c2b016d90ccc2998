import Foundation
import LocalTestSupport
import Pasteboard
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Copy of a file whose name is not UTF-8, which reaches the activity as a link with a readable
/// name (the `share` command's stand-in): the clipboard gets the file's real path, byte for
/// byte, read back with xclip from a real X server. The files are PDFs: a text file would be
/// offered as its contents (see `PasteboardItemTests`), and the path is what these check.
@Suite("Copy of a file whose name is not UTF-8", .serialized)
struct RawPathTests {
    @Test("the X11 clipboard holds the real path's bytes, and the link list its percent-encoded bytes")
    func realPathOnTheX11Clipboard() throws {
        let folder = try TemporaryFolder("pasteboard-tests")
        defer { folder.remove() }
        // `caf\xE9.pdf`, made through the C library: Foundation cannot name it.
        let raw = Array(folder.url.path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".pdf".utf8)
        let descriptor = (raw + [0]).withUnsafeBufferPointer { pointer in
            pointer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o600) }
        }
        try #require(descriptor >= 0)
        close(descriptor)
        // The stand-in, as `share` makes it: a link named like the file, to its raw path.
        let link = folder.url.appendingPathComponent("caf\u{FFFD}.pdf")
        let linked = (raw + [0]).withUnsafeBufferPointer { pointer in
            pointer.withMemoryRebound(to: CChar.self) { symlink($0.baseAddress!, link.path) }
        }
        try #require(linked == 0)

        let display = try VirtualDisplay()
        defer { display.stop() }
        let clipboard = try #require(X11Clipboard(environment: ["DISPLAY": display.display, "PATH": "/usr/bin:/bin"]))
        try Pasteboard(backend: clipboard).setItems([try PasteboardItem(url: link)])
        #expect(try xclipOutput("UTF8_STRING", display: display.display).data == Data(raw))
        let uri = "file://" + folder.url.path + "/caf%E9.pdf\r\n"
        #expect(try xclipOutput("text/uri-list", display: display.display).data == Data(uri.utf8))
    }

    @Test("a link whose target is UTF-8 is copied as the link, as before")
    func anOrdinaryLinkIsCopiedAsItIs() throws {
        let folder = try TemporaryFolder("pasteboard-tests")
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("notes.pdf")
        try Data("%PDF-1.4\n".utf8).write(to: file)
        let link = folder.url.appendingPathComponent("link.pdf")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
        let item = try PasteboardItem(url: link)
        #expect(item.data(forType: PasteboardItem.utf8Text) == Data(link.path.utf8))
    }
}
