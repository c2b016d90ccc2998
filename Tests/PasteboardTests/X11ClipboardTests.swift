import Foundation
import LocalTestSupport
import Pasteboard
import ShareSheet
import Testing

/// Against a real X server (Xvfb) and the program people read the clipboard with (xclip).
@Suite("Under Xvfb: the X11 clipboard offers every representation", .serialized)
struct X11ClipboardTests {
    private func clipboard(_ display: VirtualDisplay) throws -> X11Clipboard {
        try #require(X11Clipboard(environment: ["DISPLAY": display.display, "PATH": "/usr/bin:/bin"]))
    }

    @Test("text: TARGETS lists the text types and their X11 aliases; the bytes read back identical")
    func text() throws {
        let display = try VirtualDisplay()
        defer { display.stop() }
        let clipboard = try clipboard(display)
        #expect(clipboard.name.contains("sharesheet-clipboard-owner"))
        let text = "Grüße, «world» 👋\nsecond line"
        try Pasteboard(backend: clipboard).setItems([PasteboardItem(string: text)])
        let targets = String(decoding: try xclipOutput("TARGETS", display: display.display).data, as: UTF8.self)
        #expect(targets.split(separator: "\n") == ["TARGETS", "TIMESTAMP", "text/plain;charset=utf-8", "text/plain", "UTF8_STRING", "TEXT"])
        #expect(try xclipOutput("UTF8_STRING", display: display.display).data == Data(text.utf8))
        #expect(try xclipOutput("text/plain", display: display.display).data == Data(text.utf8))
        #expect(try xclipOutput("image/png", display: display.display).status != 0, "a type not offered is refused")
    }

    @Test("a link list and a PNG (small and large, sent by INCR) read back identical; the replaced owner exits")
    func linksAndImages() throws {
        let display = try VirtualDisplay()
        defer { display.stop() }
        let pasteboard = Pasteboard(backend: try clipboard(display))
        let urls = [URL(string: "https://swift.org/")!, URL(string: "https://example.com/a%20b")!]
        try pasteboard.setItems(try urls.map { try PasteboardItem(url: $0) })
        let firstOwner = try #require(X11Clipboard.lastOwnerProcessID)
        let targets = String(decoding: try xclipOutput("TARGETS", display: display.display).data, as: UTF8.self)
        #expect(targets.split(separator: "\n").contains("text/uri-list"))
        #expect(try xclipOutput("text/uri-list", display: display.display).data == Data("https://swift.org/\r\nhttps://example.com/a%20b\r\n".utf8))
        #expect(pasteboard.urls == urls)

        let image = try PasteboardItem(image: try #require(Image(data: Fixtures.jpeg)))
        try pasteboard.setItems([image])
        let imageTargets = String(decoding: try xclipOutput("TARGETS", display: display.display).data, as: UTF8.self)
        #expect(imageTargets.split(separator: "\n") == ["TARGETS", "TIMESTAMP", "image/jpeg", "image/png"])
        #expect(try xclipOutput("image/jpeg", display: display.display).data == Fixtures.jpeg)
        #expect(try xclipOutput("image/png", display: display.display).data == image.data(forType: "image/png"))

        // Taking the clipboard over made the first owner exit, and it was reaped (no zombie).
        let deadline = Date().addingTimeInterval(10)
        while kill(firstOwner, 0) == 0, Date() < deadline { usleep(10_000) }
        #expect(kill(firstOwner, 0) != 0)
        #expect(X11Clipboard.lastOwnerProcessID != firstOwner)

        var large = Fixtures.png
        var state: UInt32 = 7
        while large.count < 3_000_000 {
            state = state &* 1_664_525 &+ 1_013_904_223
            large.append(UInt8(truncatingIfNeeded: state >> 24))
        }
        try pasteboard.setItems([PasteboardItem(representations: [.init(type: "image/png", data: large)])])
        #expect(try xclipOutput("image/png", display: display.display).data == large)
    }

    @Test("20 copies, each asked for TARGETS by a program that leaves before the answer (a GTK window exiting), then read at once")
    func copyThenReadWithAVanishingRequestor() throws {
        // Before the owner ignored X errors, the answer to the gone requestor (BadWindow) ended
        // the owner through Xlib's default handler: about 9 in 10 of these reads found the
        // clipboard empty, after a copy that had reported success.
        let display = try VirtualDisplay()
        defer { display.stop() }
        let pasteboard = Pasteboard(backend: try clipboard(display))
        var lost: [Int] = []
        for round in 0..<20 {
            let text = "copy \(round) \(UUID().uuidString)"
            try pasteboard.setItems([PasteboardItem(string: text)])
            let requestor = try Command.run(
                "/usr/bin/python3", [Fixture.path("vanishing-requestor.py"), display.display],
                environment: ["PATH": "/usr/bin:/bin"])
            try #require(requestor.status == 0, "the requestor failed: \(requestor.standardError)")
            // xclip's window may get the gone requestor's window ID (X reuses a closed client's
            // IDs), and then takes the owner's late answer to that requestor for its own: an empty
            // read with the owner alive. Read once more before counting a loss; with the owner
            // gone, the second read finds nothing either.
            var read = try xclipOutput("UTF8_STRING", display: display.display).data
            if read != Data(text.utf8) {
                usleep(200_000)
                read = try xclipOutput("UTF8_STRING", display: display.display).data
            }
            let owner = try #require(X11Clipboard.lastOwnerProcessID)
            if read != Data(text.utf8) || kill(owner, 0) != 0 { lost.append(round) }
        }
        #expect(lost.isEmpty, "the clipboard was empty after these copies: \(lost)")
        #expect(display.ownerProcesses().count == 1, "owners: \(display.ownerProcesses())")
    }

    @Test("an owner that never says it holds the clipboard: the copy fails within about 5 s, saying so, and the owner is stopped")
    func silentOwner() throws {
        let display = try VirtualDisplay()
        defer { display.stop() }
        let folder = try TemporaryFolder("pasteboard-tests")
        defer { folder.remove() }
        // Reads what it is given, then says nothing and stays, as a hung owner would.
        let silent = folder.url.appendingPathComponent("silent-owner")
        try "#!/bin/sh\ncat > /dev/null\nexec sleep 60\n".write(to: silent, atomically: true, encoding: .utf8)
        chmod(silent.path, 0o755)
        let clipboard = try #require(
            X11Clipboard(environment: ["DISPLAY": display.display, "PATH": "/usr/bin:/bin", "SHARESHEET_CLIPBOARD_OWNER": silent.path]))
        let started = Date()
        let error = #expect(throws: ShareError.self) { try Pasteboard(backend: clipboard).setItems([PasteboardItem(string: "never")]) }
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(error?.message.contains("did not confirm within 5 s") == true, "\(String(describing: error))")
        #expect(try xclipOutput("UTF8_STRING", display: display.display).status != 0, "nothing is on the clipboard")
    }

    @Test("share --activity copy on a display, then share paste and xclip read the same bytes")
    func commandLine() async throws {
        let display = try VirtualDisplay()
        defer { display.stop() }
        let home = try TemporaryHome()
        defer { home.remove() }
        let environment = ["DISPLAY": display.display]
        let png = try home.file("shot.png", Fixtures.png)
        let copied = try await Share.run(["--activity", "copy", png.path], home: home, extra: environment)
        #expect(copied.status == 0, "\(copied.standardError)")
        #expect(display.ownerProcesses().count == 1)
        let targets = String(decoding: try xclipOutput("TARGETS", display: display.display).data, as: UTF8.self)
        #expect(targets.split(separator: "\n").starts(with: ["TARGETS", "TIMESTAMP", "image/png", "text/uri-list", "x-special/gnome-copied-files"]))
        #expect(try xclipOutput("image/png", display: display.display).data == Fixtures.png)
        let pasted = try await Share.run(["paste", "--type", "image/png"], home: home, extra: environment)
        #expect(pasted.output == Fixtures.png)
        let text = try await Share.run(["paste"], home: home, extra: environment)
        #expect(text.standardOutput == png.path)
        // Nothing went to the file-backed pasteboard.
        #expect(!FileManager.default.fileExists(atPath: home.home.appendingPathComponent("data/sharesheet/pasteboard.json").path))
    }

    @Test("5 MiB piped into share --activity copy -: after share exits, share paste names a kept copy with the same bytes")
    func pipedFileOutlivesTheCommand() async throws {
        let display = try VirtualDisplay()
        defer { display.stop() }
        let home = try TemporaryHome()
        defer { home.remove() }
        var bytes = Data(count: 5 << 20)
        for index in stride(from: 0, to: bytes.count, by: 4096) { bytes[index] = UInt8(truncatingIfNeeded: index >> 12) }
        let input = try home.file("input.bin", bytes)
        let share = try #require(Share.url)
        var environment = home.environment
        environment["DISPLAY"] = display.display
        environment["SHARE_INPUT"] = input.path
        // Past the in-memory limit, standard input is shared as a file the command removes at its end.
        let copied = try await Command.run(
            "/bin/sh", ["-c", "exec \"$0\" --activity copy - < \"$SHARE_INPUT\"", share.path], environment: environment)
        #expect(copied.status == 0, "\(copied)")
        let pasted = try await Share.run(["paste"], home: home, extra: ["DISPLAY": display.display])
        let kept = URL(fileURLWithPath: home.environment["XDG_CACHE_HOME"]!).appendingPathComponent("sharesheet/clipboard").standardizedFileURL
        #expect(pasted.standardOutput.hasPrefix(kept.path + "/"), "pasted: \(pasted.standardOutput)")
        #expect(FileManager.default.contents(atPath: pasted.standardOutput) == bytes)
    }
}

@Suite("Under Xvfb: without the owner helper, xclip serves the best representation")
struct X11FallbackTests {
    @Test("SHARESHEET_CLIPBOARD_OWNER=none: xclip offers the image's own type, and it reads back identical")
    func xclipFallback() throws {
        let display = try VirtualDisplay()
        defer { display.stop() }
        let clipboard = try #require(
            X11Clipboard(environment: ["DISPLAY": display.display, "PATH": "/usr/bin:/bin", "SHARESHEET_CLIPBOARD_OWNER": "none"]))
        #expect(clipboard.name.contains("xclip"))
        try Pasteboard(backend: clipboard).setItems([PasteboardItem(string: "via xclip")])
        // xclip's forked owner has no PID we know: it exits when Xvfb stops.
        let targets = String(decoding: try xclipOutput("TARGETS", display: display.display).data, as: UTF8.self)
        #expect(targets.split(separator: "\n").contains("text/plain;charset=utf-8"))
        #expect(try xclipOutput("text/plain;charset=utf-8", display: display.display).data == Data("via xclip".utf8))
    }
}
