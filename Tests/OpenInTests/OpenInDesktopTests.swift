import Foundation
import LocalTestSupport
import Testing

/// Open In and `share open` against a real desktop: desktop entries and `mimeapps.list` in
/// temporary XDG folders, read by GIO inside the real `share` binary, with the real `xdg-mime`,
/// `update-desktop-database` and `desktop-file-validate`.
@Suite("Open In on a desktop of its own")
struct OpenInDesktopTests {
    /// The candidate lines of `share --explain open-in`: (name, id, role) in printed order.
    static func candidates(in output: String) -> [(id: String, role: String, line: String)] {
        output.split(separator: "\n").compactMap { line in
            let text = line.trimmingCharacters(in: .whitespaces)
            guard let dot = text.firstIndex(of: "."), Int(text[..<dot]) != nil,
                let open = text.firstIndex(of: "("), let close = text.firstIndex(of: ")")
            else { return nil }
            let inside = text[text.index(after: open)..<close]
            let id = String(inside.split(separator: ",").first ?? "")
            let role = text[text.index(after: close)...].dropFirst(2).split(separator: ":").first.map(String.init) ?? ""
            return (id, role, text)
        }
    }

    @Test("candidates for a PNG, a PDF, an extensionless PDF and an https link come default, recommended, fallback")
    func candidateOrder() async throws {
        let desktop = try TestDesktop()
        try desktop.addApplication("viewer-a", name: "Viewer A", icon: "image-viewer-a", mimeTypes: ["image/png"])
        try desktop.addApplication(
            "viewer-b", name: "Viewer B", icon: "image-viewer-b", mimeTypes: ["image/png", "image/jpeg"], place: .system)
        try desktop.addApplication("reader", name: "Reader", icon: "pdf-reader", mimeTypes: ["application/pdf"])
        try desktop.addApplication("hexer", name: "Hexer", icon: "hex-editor", mimeTypes: ["application/octet-stream"])
        try desktop.addApplication(
            "browser", name: "Browser", icon: "web-browser",
            mimeTypes: ["x-scheme-handler/http", "x-scheme-handler/https", "text/html"], code: "%u")
        try desktop.addApplication(
            "browser-b", name: "Browser B", icon: "web-browser-b", mimeTypes: ["x-scheme-handler/https"], code: "%u",
            place: .system)
        try desktop.setSystemDefaults(["image/png": "viewer-b.desktop", "x-scheme-handler/https": "browser-b.desktop"])
        try await desktop.updateDatabases()
        _ = try desktop.file("photo.png", onePixelPNG)
        _ = try desktop.file("report.pdf", minimalPDF)
        _ = try desktop.file("scan", minimalPDF)

        let png = try await desktop.share(["--explain", "open-in", "photo.png"])
        #expect(png.status == 0, "\(png)")
        let pngCandidates = Self.candidates(in: png.standardOutput)
        #expect(pngCandidates.map(\.id) == ["viewer-b.desktop", "viewer-a.desktop", "hexer.desktop"], "\(png)")
        #expect(pngCandidates.map(\.role) == ["default", "recommended", "fallback"], "\(png)")
        #expect(pngCandidates.first?.line.contains("Viewer B") == true)
        #expect(pngCandidates.first?.line.contains("icon image-viewer-b") == true)
        #expect(png.standardOutput.contains("as image/png"))
        #expect(png.standardOutput.contains("question: skipped, Viewer B was chosen as the default"), "\(png)")

        for name in ["report.pdf", "scan"] {
            let pdf = try await desktop.share(["--explain", "open-in", name])
            #expect(pdf.status == 0, "\(pdf)")
            #expect(pdf.standardOutput.contains("as application/pdf"), "\(name) was not sniffed as a PDF: \(pdf)")
            let pdfCandidates = Self.candidates(in: pdf.standardOutput)
            #expect(pdfCandidates.map(\.id) == ["reader.desktop", "hexer.desktop"], "\(pdf)")
            #expect(pdfCandidates.map(\.role) == ["default", "fallback"], "\(pdf)")
        }

        let web = try await desktop.share(["--explain", "open-in", "https://example.com/page"])
        #expect(web.status == 0, "\(web)")
        #expect(Self.candidates(in: web.standardOutput).map(\.id) == ["browser-b.desktop", "browser.desktop"], "\(web)")
        #expect(Self.candidates(in: web.standardOutput).map(\.role) == ["default", "recommended"], "\(web)")
        #expect(web.standardOutput.contains("as x-scheme-handler/https"), "\(web)")

        // A PDF has its reader and, as a fallback, the hex editor: two fit, the question is asked.
        let single = try await desktop.share(["--explain", "open-in", "report.pdf"])
        #expect(single.standardOutput.contains("question: asked, 2 applications fit"), "\(single)")

        // The JSON listing offers it in the action row only when an application fits.
        let list = try await desktop.share(["--list", "--json", "photo.png"])
        #expect(list.standardOutput.contains("\"name\":\"open-in\""), "\(list)")
        let none = try await desktop.share(["--explain", "open-in", "mailto:ana@example.com"])
        #expect(none.status == 69, "\(none)")
        #expect(none.standardOutput.contains("not offered: no application on this desktop opens x-scheme-handler/mailto"), "\(none)")
    }

    /// Names with every character a shell would read: spaces, both quotes, `;`, `$(…)`, a
    /// leading `-`, a newline.
    static let hostileNames = [
        "a b.png", "it's \"quoted\".png", "x;touch pwned-semicolon.png", "$(touch pwned-subst).png",
        "-leading-dash.png", "new\nline.png", "`touch pwned-tick`&|<>*?.png",
    ]

    @Test("the recorder receives exactly the file path or URL, whatever characters the name has")
    func argumentsArriveIntact() async throws {
        let desktop = try TestDesktop()
        try desktop.addApplication("viewer", name: "Viewer", mimeTypes: ["image/png"])
        try desktop.addApplication(
            "browser", name: "Browser", mimeTypes: ["x-scheme-handler/https"], code: "%u")
        try await desktop.updateDatabases()

        _ = try desktop.file("-x.png", onePixelPNG)
        let explained = try await desktop.share(["--explain", "open-in", "--", "-x.png"])
        #expect(explained.standardOutput.contains("question: skipped, only one application fits"), "\(explained)")
        var expected: [[String]] = []
        for name in Self.hostileNames {
            let url = try desktop.file(name, onePixelPNG)
            // Through the Open In activity (one application fits: no question)…
            let run = try await desktop.share(["--activity", "open-in", "--", name])
            #expect(run.status == 0, "\(name.debugDescription): \(run)")
            expected.append([url.path])
            // …and through `share open`.
            let open = try await desktop.share(["open", "--", name])
            #expect(open.status == 0, "\(name.debugDescription): \(open)")
            expected.append([url.path])
        }
        let received = try await desktop.recorded("viewer", count: expected.count)
        #expect(received.sorted { $0.joined() < $1.joined() } == expected.sorted { $0.joined() < $1.joined() })
        let link = "https://example.com/a b?q=$(id);x=`id`&y='1'"
        let encoded = try #require(URL(string: link.replacingOccurrences(of: " ", with: "%20")))
        let web = try await desktop.share(["open", encoded.absoluteString])
        #expect(web.status == 0, "\(web)")
        #expect(try await desktop.recorded("browser") == [[encoded.absoluteString]])
        // Nothing was run by a shell: no file the names would have created exists.
        let created = (try FileManager.default.contentsOfDirectory(atPath: desktop.work.path)).filter { $0.hasPrefix("pwned") }
        #expect(created.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: desktop.root.appendingPathComponent("pwned-subst").path))
    }

    @Test("remember my choice writes the desktop default, xdg-mime reports it, and the next open skips the question")
    func rememberMyChoice() async throws {
        let desktop = try TestDesktop()
        try desktop.addApplication("viewer-a", name: "Viewer A", mimeTypes: ["image/png"])
        try desktop.addApplication("viewer-b", name: "Viewer B", mimeTypes: ["image/png"])
        try await desktop.updateDatabases()
        _ = try desktop.file("photo.png", onePixelPNG)

        // Two fit and none was chosen: the question is asked, and a script cannot answer it.
        let explained = try await desktop.share(["--explain", "open-in", "photo.png"])
        #expect(explained.standardOutput.contains("question: asked, 2 applications fit"), "\(explained)")
        let candidates = Self.candidates(in: explained.standardOutput).map(\.id)
        #expect(Set(candidates) == ["viewer-a.desktop", "viewer-b.desktop"])
        let asked = try await desktop.share(["--activity", "open-in", "photo.png"])
        #expect(asked.status == 64, "\(asked)")
        #expect(asked.standardError.contains("app"), "\(asked)")
        #expect(desktop.allRecords().isEmpty)

        // Choose the one that is not the implicit default, and remember it.
        let chosen = try #require(candidates.last)
        let chosenName = String(chosen.dropLast(".desktop".count))
        let before = try await desktop.xdgMime(["query", "default", "image/png"])
        #expect(before.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) != chosen, "\(before)")
        let remembered = try await desktop.share(
            ["--activity", "open-in", "--app", chosen, "--set", "remember=yes", "photo.png"])
        #expect(remembered.status == 0, "\(remembered)")
        // remember is Open In's own key: neither refused nor warned about.
        #expect(remembered.standardError.isEmpty, "\(remembered)")
        #expect(try await desktop.recorded(chosenName).count == 1)
        let mimeapps = try String(contentsOf: desktop.configHome.appendingPathComponent("mimeapps.list"), encoding: .utf8)
        #expect(mimeapps.contains("image/png=\(chosen)"), "\(mimeapps)")

        let query = try await desktop.xdgMime(["query", "default", "image/png"])
        #expect(query.status == 0, "\(query)")
        #expect(query.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == chosen, "\(query)")

        // The next open asks nothing: no --app, no terminal, and it goes to the remembered one.
        let next = try await desktop.share(["--activity", "open-in", "photo.png"])
        #expect(next.status == 0, "\(next)")
        #expect(try await desktop.recorded(chosenName, count: 2).count == 2)
        let again = try await desktop.share(["--explain", "open-in", "photo.png"])
        #expect(again.standardOutput.contains("question: skipped"), "\(again)")
        #expect(Self.candidates(in: again.standardOutput).first?.id == chosen)
    }

    @Test("typed data from standard input is written to a named file first, and that file is opened")
    func typedDataGoesThroughANamedFile() async throws {
        let desktop = try TestDesktop()
        try desktop.addApplication("viewer", name: "Viewer", mimeTypes: ["image/png"])
        try await desktop.updateDatabases()
        let run = try await desktop.share(["--activity", "open-in", "-"], input: onePixelPNG)
        #expect(run.status == 0, "\(run)")
        let received = try await desktop.recorded("viewer")
        let path = try #require(received.first?.first)
        #expect(path.hasPrefix(desktop.cacheHome.appendingPathComponent("sharesheet/open-in").path), "\(path)")
        // A PNG on standard input is sniffed as an image (SPEC §6), written under the image's name.
        #expect(path.hasSuffix("/image.png"), "\(path)")
        #expect(FileManager.default.contents(atPath: path) == onePixelPNG)
        #expect(run.standardOutput.trimmingCharacters(in: .newlines) == path)
    }

    @Test("mailto:, sms: and tel: reach their scheme handlers with the URL intact")
    func schemeHandlers() async throws {
        let desktop = try TestDesktop()
        for scheme in ["mailto", "sms", "tel"] {
            try desktop.addApplication(
                "\(scheme)-app", name: "\(scheme) app", mimeTypes: ["x-scheme-handler/\(scheme)"], code: "%u")
        }
        try await desktop.updateDatabases()
        let links = [
            "mailto": "mailto:ana@example.com?subject=Hi%20there&body=a;b%20$(id)",
            "sms": "sms:+15551234567?body=see%20you%20at%206",
            "tel": "tel:+1-555-123-4567",
        ]
        for (scheme, link) in links.sorted(by: { $0.key < $1.key }) {
            let run = try await desktop.share(["open", link])
            #expect(run.status == 0, "\(link): \(run)")
            #expect(try await desktop.recorded("\(scheme)-app") == [[link]], "\(scheme)")
        }
        // The activity routes a link the same way.
        let viaActivity = try await desktop.share(["--activity", "open-in", "tel:+4930123456"])
        #expect(viaActivity.status == 0, "\(viaActivity)")
        #expect(try await desktop.recorded("tel-app", count: 2).contains(["tel:+4930123456"]))
    }

    @Test("maps:?q=… reaches the geo: handler as a geo: URI")
    func mapsToGeo() async throws {
        let desktop = try TestDesktop()
        try desktop.addApplication("maps", name: "Maps", mimeTypes: ["x-scheme-handler/geo"], code: "%u")
        try desktop.addApplication("browser", name: "Browser", mimeTypes: ["x-scheme-handler/https"], code: "%u")
        try await desktop.updateDatabases()
        let run = try await desktop.share(["open", "maps:?q=Brandenburger+Tor"])
        #expect(run.status == 0, "\(run)")
        #expect(try await desktop.recorded("maps") == [["geo:0,0?q=Brandenburger%20Tor"]])
        let coordinates = try await desktop.share(["open", "maps://?ll=52.5163,13.3777&q=Tor"])
        #expect(coordinates.status == 0, "\(coordinates)")
        #expect(try await desktop.recorded("maps", count: 2).contains(["geo:52.5163,13.3777?q=Tor"]))
        #expect(try await desktop.recorded("browser", timeout: 0).isEmpty)
    }

    @Test("without a geo: handler, maps and geo: links open the web map in the browser")
    func mapsWebFallback() async throws {
        let desktop = try TestDesktop()
        try desktop.addApplication("browser", name: "Browser", mimeTypes: ["x-scheme-handler/https"], code: "%u")
        try await desktop.updateDatabases()
        let run = try await desktop.share(["open", "maps:?q=Brandenburger+Tor"])
        #expect(run.status == 0, "\(run)")
        #expect(run.standardError.contains("web map"), "\(run)")
        #expect(try await desktop.recorded("browser") == [["https://www.openstreetmap.org/search?query=Brandenburger%20Tor"]])
        let geo = try await desktop.share(["open", "geo:52.5163,13.3777"])
        #expect(geo.status == 0, "\(geo)")
        #expect(
            try await desktop.recorded("browser", count: 2).contains([
                "https://www.openstreetmap.org/?mlat=52.5163&mlon=13.3777#map=15/52.5163/13.3777"
            ]))
    }

    @Test("no handler at all: exit 69 with a message naming the scheme")
    func noHandler() async throws {
        let desktop = try TestDesktop()
        try await desktop.updateDatabases()
        for (link, scheme) in [("tel:+15551234567", "tel:"), ("sms:+15551234567", "sms:"), ("mailto:a@example.com", "mailto:"),
            ("maps:?q=Berlin", "geo:")]
        {
            let run = try await desktop.share(["open", link])
            #expect(run.status == 69, "\(link): \(run)")
            #expect(run.standardError.contains(scheme), "\(link): \(run)")
            #expect(run.standardError.split(separator: "\n").count == 1, "\(run)")
        }
        let activity = try await desktop.share(["--activity", "open-in", "tel:+15551234567"])
        #expect(activity.status == 69, "\(activity)")
        #expect(activity.standardError.contains("x-scheme-handler/tel"), "\(activity)")
        let missing = try await desktop.share(["open", "no-such-file.png"])
        #expect(missing.status == 66, "\(missing)")
        #expect(missing.standardError.contains("no-such-file.png"), "\(missing)")
    }

    @Test("an application that fails to start is reported with its name and the reason")
    func launchFailure() async throws {
        let desktop = try TestDesktop()
        // GIO itself refuses to start it: its working folder (Path=) is gone.
        try desktop.addApplication(
            "broken", name: "Broken Viewer", mimeTypes: ["image/png"],
            exec: "\(desktop.recorder.path) broken %f\nPath=\(desktop.root.path)/no-such-folder")
        // A script whose interpreter is gone.
        let stale = desktop.root.appendingPathComponent("bin/stale-viewer")
        try Data("#!/no/such/interpreter\nexit 0\n".utf8).write(to: stale)
        chmod(stale.path, 0o755)
        try desktop.addApplication("stale", name: "Stale Viewer", mimeTypes: ["image/jpeg"], exec: "\(stale.path) %f")
        try await desktop.updateDatabases()
        _ = try desktop.file("photo.png", onePixelPNG)
        _ = try desktop.file("photo.jpg", Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]) + Data("JFIF".utf8))
        let cases: [([String], String, String)] = [
            (["open", "photo.png"], "Broken Viewer", "no-such-folder"),
            (["--activity", "open-in", "photo.png"], "Broken Viewer", "no-such-folder"),
            (["open", "--app", "broken", "photo.png"], "Broken Viewer", "no-such-folder"),
            (["open", "photo.jpg"], "Stale Viewer", "/no/such/interpreter"),
        ]
        for (arguments, name, reason) in cases {
            let run = try await desktop.share(arguments)
            #expect(run.status == 69, "\(arguments): \(run)")
            #expect(run.standardError.contains(name), "\(arguments): \(run)")
            #expect(run.standardError.contains("cannot start"), "\(arguments): \(run)")
            #expect(run.standardError.contains(reason), "\(arguments): \(run)")
        }
        #expect(desktop.allRecords().isEmpty)
        let unknown = try await desktop.share(["open", "--app", "nothing-here", "photo.png"])
        #expect(unknown.status == 69, "\(unknown)")
        #expect(unknown.standardError.contains("nothing-here"), "\(unknown)")
    }

    @Test("make install-desktop-entry installs a share entry that passes desktop-file-validate and takes any file")
    func installedDesktopEntry() async throws {
        let desktop = try TestDesktop()
        let prefix = desktop.root.appendingPathComponent("home/.local")
        let make = try await desktop.run(
            program: "/usr/bin/make",
            ["-s", "-C", TestDesktop.repositoryRoot.path, "install-desktop-entry", "PREFIX=\(prefix.path)"])
        #expect(make.status == 0, "\(make)")
        // What `make install` puts next to it: the program (TryExec looks for it).
        let bin = prefix.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let binary = try #require(Share.url)
        try FileManager.default.createSymbolicLink(at: bin.appendingPathComponent("share"), withDestinationURL: binary)
        let entry = prefix.appendingPathComponent("share/applications/share.desktop")
        let validate = try await desktop.run(program: "/usr/bin/desktop-file-validate", [entry.path])
        #expect(validate.status == 0, "\(validate)")
        #expect(validate.standardOutput.isEmpty && validate.standardError.isEmpty, "\(validate)")
        let text = try String(contentsOf: entry, encoding: .utf8)
        #expect(text.contains("Exec=\"\(prefix.path)/bin/share\" --gui %F"), "\(text)")
        // "Share…" opens the window: no terminal.
        #expect(text.contains("\nTerminal=false\n"), "\(text)")
        #expect(text.contains("\nTryExec=\(prefix.path)/bin/share\n"), "\(text)")

        // GIO in that desktop offers it for a PNG and for a file of no known type.
        _ = try desktop.file("photo.png", onePixelPNG)
        _ = try desktop.file("blob.xyz", Data([0, 1, 2, 3, 0xFF]))
        for name in ["photo.png", "blob.xyz"] {
            let run = try await desktop.share(["--explain", "open-in", name])
            #expect(Self.candidates(in: run.standardOutput).map(\.id).contains("share.desktop"), "\(name): \(run)")
        }
    }
}
