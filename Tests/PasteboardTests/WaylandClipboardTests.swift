import Foundation
import LocalTestSupport
import Pasteboard
import ShareSheet
import Testing

/// Against a real Wayland compositor (headless sway) and the programs people read and write its
/// clipboard with (wl-paste, wl-copy).
@Suite("Under headless sway: the Wayland clipboard through wl-copy and wl-paste", .serialized)
struct WaylandClipboardTests {
    private func clipboard(_ sway: HeadlessSway) throws -> WaylandClipboard {
        try #require(WaylandClipboard(environment: sway.environment))
    }

    @Test("text copied through the backend reads back identical with wl-paste, and wl-copy's text comes back")
    func text() throws {
        let sway = try HeadlessSway()
        defer { sway.stop() }
        let pasteboard = Pasteboard(backend: try clipboard(sway))
        let text = "Grüße, «world» 👋\nsecond line"
        try pasteboard.setItems([PasteboardItem(string: text)])
        let types = String(decoding: try sway.run("wl-paste", ["--list-types"]).output, as: UTF8.self)
        #expect(types.split(separator: "\n").contains("text/plain;charset=utf-8"), "\(types)")
        #expect(try sway.run("wl-paste", ["--no-newline"]).output == Data(text.utf8))

        #expect(try sway.run("wl-copy", [], input: Data("from another app".utf8)).status == 0)
        #expect(pasteboard.string == "from another app")
    }

    @Test("share --activity copy of a PNG, then wl-paste and share paste read the same bytes")
    func commandLine() async throws {
        let sway = try HeadlessSway()
        defer { sway.stop() }
        let home = try TemporaryHome()
        defer { home.remove() }
        let png = try home.file("shot.png", Fixtures.png)
        let environment = ["WAYLAND_DISPLAY": sway.display, "XDG_RUNTIME_DIR": sway.runtimeFolder.path]
        let copied = try await Share.run(["--activity", "copy", png.path], home: home, extra: environment)
        #expect(copied.status == 0, "\(copied.standardError)")
        #expect(copied.standardError.isEmpty, "no fallback: \(copied.standardError)")
        let types = String(decoding: try sway.run("wl-paste", ["--list-types"]).output, as: UTF8.self)
        #expect(types.split(separator: "\n").contains("image/png"), "\(types)")
        #expect(try sway.run("wl-paste", ["--type", "image/png"]).output == Fixtures.png)
        let pasted = try await Share.run(["paste", "--type", "image/png"], home: home, extra: environment)
        #expect(pasted.status == 0, "\(pasted.standardError)")
        #expect(pasted.output == Fixtures.png)

        let text = try await Share.run(["--activity", "copy", "--text", "a b;c"], home: home, extra: environment)
        #expect(text.status == 0, "\(text.standardError)")
        #expect(try sway.run("wl-paste", ["--no-newline"]).output == Data("a b;c".utf8))
        let pastedText = try await Share.run(["paste"], home: home, extra: environment)
        #expect(pastedText.standardOutput == "a b;c")
        // Nothing went to the file-backed pasteboard.
        #expect(!FileManager.default.fileExists(atPath: home.home.appendingPathComponent("data/sharesheet/pasteboard.json").path))
    }
}
