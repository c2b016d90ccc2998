// Copy through the share service, of a file its caller sent as a descriptor: the request's own
// copy of the file goes when the request ends, and the clipboard must still name a file that is
// there (issue #28).
import Foundation
import LocalTestSupport
import Testing

@Suite("Share service: Copy of a descriptor keeps its data after the request", .serialized)
struct ServiceCopyTests {
    @Test("a PDF copied by descriptor: after the Response, share paste names a private copy with the same bytes")
    func fileOutlivesTheRequest() async throws {
        try await withServiceOnDisplay { home, bus, display in
            let bytes = Data((0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
            let report = try home.file("report.pdf", Data("%PDF-1.4\n".utf8) + bytes)
            let result = try await ServiceClient(bus: bus).share([
                "--file", report.path + ":application/pdf", "--activity", "copy", "--interactive", "false",
            ])
            #expect(result["response"] as? Int == 0, "\(result)\n\(bus.logTail())")
            #expect((result["results"] as? [String: Any])?["disposition"] as? String == "copied", "\(result)")

            let pasted = try await Share.run(["paste"], home: home, extra: ["DISPLAY": display])
            #expect(pasted.status == 0, "\(pasted.standardError)")
            let path = pasted.standardOutput
            #expect(path.hasPrefix(clipboardFolder(home).path + "/"), "pasted: \(path)")
            #expect(URL(fileURLWithPath: path).lastPathComponent == "report.pdf")
            #expect(FileManager.default.contents(atPath: path) == (try Data(contentsOf: report)), "\(path) is gone or differs")
            // The request's own copy went with the request: only the clipboard's stayed.
            #expect(try await filesLeft(under: bus.temporaryFolder).isEmpty)
        }
    }

    @Test("a text file copied by descriptor reads as its text; a second Copy replaces the first and its private copy goes")
    func textFileAndReplacement() async throws {
        try await withServiceOnDisplay { home, bus, display in
            let client = ServiceClient(bus: bus)
            let text = "Notizen für Montag ✓\nzweite Zeile\n"
            let notes = try home.file("notes.txt", Data(text.utf8))
            let first = try await client.share(["--file", notes.path + ":text/plain", "--activity", "copy", "--interactive", "false"])
            #expect(first["response"] as? Int == 0, "\(first)\n\(bus.logTail())")
            let read = try await Command.run(
                "/usr/bin/xclip", ["-o", "-selection", "clipboard", "-t", "text/plain"],
                environment: ["DISPLAY": display, "PATH": "/usr/bin:/bin"])
            #expect(read.status == 0 && read.standardOutput == text, "\(read)")
            let uris = try await Share.run(["paste", "--type", "text/uri-list"], home: home, extra: ["DISPLAY": display])
            let uri = try #require(URL(string: uris.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)), "\(uris)")
            #expect(FileManager.default.contents(atPath: uri.path) == Data(text.utf8), "\(uri.path) is gone or differs")
            let firstFolder = uri.deletingLastPathComponent()
            #expect(entries(clipboardFolder(home)) == [firstFolder.lastPathComponent])

            let report = try home.file("second.pdf", Data("%PDF-1.4\nsecond\n".utf8))
            let second = try await client.share(["--file", report.path + ":application/pdf", "--activity", "copy", "--interactive", "false"])
            #expect(second["response"] as? Int == 0, "\(second)")
            let pasted = try await Share.run(["paste"], home: home, extra: ["DISPLAY": display])
            #expect(FileManager.default.contents(atPath: pasted.standardOutput) == (try Data(contentsOf: report)), "\(pasted)")
            // The first owner removes its copies as it loses the clipboard: a moment after.
            let deadline = Date().addingTimeInterval(5)
            while FileManager.default.fileExists(atPath: firstFolder.path), Date() < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(!FileManager.default.fileExists(atPath: firstFolder.path), "the first private copy stayed")
            #expect(entries(clipboardFolder(home)).count == 1, "\(entries(clipboardFolder(home)))")
        }
    }

    /// `$XDG_CACHE_HOME/sharesheet/clipboard` of the test home, where Copy keeps its copies.
    private func clipboardFolder(_ home: TemporaryHome) -> URL {
        URL(fileURLWithPath: home.environment["XDG_CACHE_HOME"]!).appendingPathComponent("sharesheet/clipboard").standardizedFileURL
    }

    private func entries(_ folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    /// The service on a private bus, its clipboard that of a private X server (the desktop
    /// session's Xvfb, whose clipboard owners end with it).
    private func withServiceOnDisplay(_ body: (TemporaryHome, ServiceBus, String) async throws -> Void) async throws {
        let home = try TemporaryHome(prefix: "service-copy")
        defer { home.remove() }
        let desktop = try DesktopSession.start(in: home.root.appendingPathComponent("desktop", isDirectory: true))
        defer { desktop.stop() }
        let bus = try ServiceBus.start(home: home, desktop: desktop)
        defer { bus.stop() }
        try await body(home, bus, desktop.display)
    }
}
