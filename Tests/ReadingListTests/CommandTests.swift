import Foundation
import ReadingList
import Testing

/// `share --activity reading-list` and `share reading-list …`, run as a person's shell runs them.
@Suite("share reading-list")
struct CommandTests {
    private func share(_ arguments: [String], in folder: TestFolder, input: String? = nil) async throws -> ProcessRun {
        let binary = try #require(Programs.share, "the share executable was not built next to the tests")
        return try await run(binary, arguments, in: folder, input: input)
    }

    @Test("share --activity reading-list adds the link with --subject as its title; sqlite3 sees it")
    func addThroughTheActivity() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let added = try await share(
            [
                "--activity", "reading-list", "--subject", "Swift.org", "--set", "preview=The language's home",
                "HTTPS://Swift.org",
            ],
            in: folder)
        #expect(added.status == 0, "\(added)")
        #expect(added.standardOutput == "https://swift.org/\n")
        let rows = try await sqlite3(
            folder.defaultDatabase, "SELECT url, title, preview_text, is_read FROM items;", in: folder)
        #expect(rows == "https://swift.org/|Swift.org|The language's home|0\n")

        let json = try await share(["--activity", "reading-list", "--json", "https://swift.org/"], in: folder)
        #expect(json.status == 0, "\(json)")
        let result = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any], "\(json)")
        #expect(result["activityType"] as? String == "com.apple.UIKit.activity.AddToReadingList")
        #expect(result["completed"] as? Bool == true)
        #expect(result["returnedItems"] as? [String] == ["https://swift.org/"])
        #expect(result["error"] is NSNull)
        #expect(result["disposition"] as? String == "saved")
        #expect(result["location"] as? String == folder.defaultDatabase.path)
        let count = try await sqlite3(folder.defaultDatabase, "SELECT count(*), title FROM items;", in: folder)
        #expect(count == "1|Swift.org\n", "the same URL again updates the entry and keeps its title")
    }

    @Test(
        "ftp: and javascript: links are refused with a message naming them",
        arguments: [
            "ftp://ftp.debian.org/debian/README", "javascript:alert(document.cookie)",
        ])
    func refusesOtherSchemes(address: String) async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let activity = try await share(["--activity", "reading-list", address], in: folder)
        #expect(activity.status != 0)
        #expect(activity.standardError.contains("http and https"), "\(activity)")
        #expect(activity.standardOutput.isEmpty)
        // Through the reading-list command, as bad data (65), naming the link.
        let marked = try await share(["reading-list", "mark-read", address], in: folder)
        #expect(marked.status == 65, "\(marked)")
        #expect(marked.standardError.hasPrefix("share: \(address): "), "\(marked)")
        #expect(marked.standardError.contains("only http and https"), "\(marked)")
        if FileManager.default.fileExists(atPath: folder.defaultDatabase.path) {
            #expect(try await sqlite3(folder.defaultDatabase, "SELECT count(*) FROM items;", in: folder) == "0\n")
        }
    }

    @Test("list, --unread, --json, mark-read, --unread again and remove")
    func listMarkRemove() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let list = ReadingList(databaseURL: folder.defaultDatabase)
        try list.importItems([
            ReadingListItem(
                url: URL(string: "https://example.com/b")!, title: "Bee",
                dateAdded: Date(timeIntervalSince1970: 1_750_000_100)),
            ReadingListItem(
                url: URL(string: "https://example.com/a")!, title: "Line\nbreak", previewText: "Pre",
                dateAdded: Date(timeIntervalSince1970: 1_750_000_000)),
        ])
        list.close()
        let listed = try await share(["reading-list", "list"], in: folder)
        #expect(listed.status == 0, "\(listed)")
        #expect(
            listed.standardOutput == """
                [ ] 2025-06-15 15:08  https://example.com/b  Bee
                [ ] 2025-06-15 15:06  https://example.com/a  Line break

                """)
        #expect(try await share(["reading-list", "mark-read", "https://example.com/a"], in: folder).status == 0)
        #expect(
            try await share(["reading-list", "list"], in: folder).standardOutput.contains(
                "[x] 2025-06-15 15:06  https://example.com/a"))
        let unread = try await share(["reading-list", "list", "--unread"], in: folder)
        #expect(unread.standardOutput == "[ ] 2025-06-15 15:08  https://example.com/b  Bee\n")
        let json = try await share(["reading-list", "list", "--json"], in: folder)
        let decoded = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]]
        #expect(decoded?.map { $0["url"] as? String } == ["https://example.com/b", "https://example.com/a"])
        #expect(decoded?.last?["read"] as? Bool == true)
        #expect(decoded?.last?["previewText"] as? String == "Pre")

        let missing = try await share(
            ["reading-list", "remove", "https://example.com/b", "https://example.com/nope"], in: folder)
        #expect(missing.status == 66, "\(missing)")
        #expect(missing.standardError == "share: https://example.com/nope: not in the reading list\n")
        #expect(try await share(["reading-list", "list"], in: folder).standardOutput.split(separator: "\n").count == 2)
        #expect(
            try await share(["reading-list", "mark-read", "--unread", "https://example.com/a"], in: folder).status == 0)
        #expect(try await share(["reading-list", "remove", "https://example.com/b"], in: folder).status == 0)
        let rows = try await sqlite3(folder.defaultDatabase, "SELECT url, is_read FROM items;", in: folder)
        #expect(rows == "https://example.com/a|0\n")
    }

    @Test("export to a file and import into another home gives the same list", arguments: ["html", "json"])
    func exportImport(format: String) async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let list = ReadingList(databaseURL: folder.defaultDatabase)
        try FormatTests.fill(list)
        let original = try list.items()
        list.close()
        let export = try await share(
            ["reading-list", "export", "--format", format, "--output", "list.\(format)"], in: folder)
        #expect(export.status == 0, "\(export)")
        #expect(export.standardOutput.isEmpty)
        let file = folder.url.appendingPathComponent("list.\(format)")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(format == "json" || text.hasPrefix("<!DOCTYPE NETSCAPE-Bookmark-file-1>"))
        let stdout = try await share(["reading-list", "export", "--format", format], in: folder)
        #expect(stdout.standardOutput == text)
        #expect(
            !(try FileManager.default.contentsOfDirectory(atPath: folder.url.path)).contains { $0.hasSuffix(".tmp") })

        let other = try TestFolder()
        defer { other.remove() }
        let imported = try await share(["reading-list", "import", file.path], in: other)
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.standardOutput == "imported 5 (5 new, 0 updated)\n")
        #expect(try ReadingList(databaseURL: other.defaultDatabase).items() == original)
        // From standard input too; everything is already there.
        let again = try await share(["reading-list", "import", "-"], in: other, input: text)
        #expect(again.standardOutput == "imported 5 (0 new, 5 updated)\n", "\(again)")
        #expect(try ReadingList(databaseURL: other.defaultDatabase).items() == original)
    }

    @Test("import skips links of other schemes with a warning each; bad files and usage errors exit as they should")
    func importProblems() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let html = """
            <!DOCTYPE NETSCAPE-Bookmark-file-1>
            <DL><p>
            <DT><A HREF="https://example.com/ok" ADD_DATE="1700000000">OK</A>
            <DT><A HREF="javascript:alert(1)">Bookmarklet</A>
            <DT><A HREF="ftp://example.com/file">FTP</A>
            </DL><p>
            """
        try Data(html.utf8).write(to: folder.url.appendingPathComponent("a b;c.html"))
        let mixed = try await share(["reading-list", "import", "a b;c.html"], in: folder)
        #expect(mixed.status == 0, "\(mixed)")
        #expect(mixed.standardOutput == "imported 1 (1 new, 0 updated), skipped 2\n")
        #expect(
            mixed.standardError.split(separator: "\n").map(String.init) == [
                "share: reading-list import: skipped javascript:alert(1): javascript: links cannot be added; the reading list takes only http and https pages",
                "share: reading-list import: skipped ftp://example.com/file: ftp: links cannot be added; the reading list takes only http and https pages",
            ])

        let onlyBad = folder.url.appendingPathComponent("bad.json")
        try Data(#"[{"url": "javascript:alert(1)"}]"#.utf8).write(to: onlyBad)
        let refused = try await share(["reading-list", "import", "bad.json"], in: folder)
        #expect(refused.status == 65, "\(refused)")
        #expect(
            refused.standardError.hasSuffix("share: reading-list import: bad.json: no http or https link to import\n"))

        try Data("just some notes\n".utf8).write(to: folder.url.appendingPathComponent("notes.txt"))
        let notBookmarks = try await share(["reading-list", "import", "notes.txt"], in: folder)
        #expect(notBookmarks.status == 65, "\(notBookmarks)")
        #expect(
            notBookmarks.standardError.hasPrefix("share: notes.txt: not a Netscape bookmark file"), "\(notBookmarks)")

        let absent = try await share(["reading-list", "import", "missing.html"], in: folder)
        #expect(absent.status == 66, "\(absent)")
        #expect(absent.standardError == "share: reading-list import: missing.html: no such file\n")

        let usage = try await share(["reading-list", "export", "--format", "csv"], in: folder)
        #expect(usage.status == 64)
        #expect(usage.standardError == "share: reading-list export: --format takes html or json, not 'csv'\n")
        let unknown = try await share(["reading-list", "frobnicate"], in: folder)
        #expect(unknown.status == 64)
        #expect(
            try ReadingList(databaseURL: folder.defaultDatabase).items().map(\.url.absoluteString) == [
                "https://example.com/ok"
            ])
    }

    @Test("share --help lists the reading-list subcommand")
    func help() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let help = try await share(["--help"], in: folder)
        #expect(help.standardOutput.contains("share reading-list list"))
        #expect(help.standardOutput.contains("share reading-list import"))
    }
}
