import Foundation
import LocalTestSupport
import ShareSheet
import Testing

@testable import ReadingList

@Suite("Export and import: Netscape bookmark HTML and JSON")
struct FormatTests {
    /// Pages whose titles and previews need escaping, with both read flags and a page without
    /// title or preview.
    static func fill(_ list: ReadingList) throws {
        try list.importItems([
            ReadingListItem(
                url: URL(string: "https://example.com/search?q=a&b=<c>&quote=\"d\"&apos='e'")!,
                title: "Fish & Chips <b>not bold</b> \"quoted\" 'single' &amp; literal",
                previewText: "Line one & <two>\nline two", dateAdded: Date(timeIntervalSince1970: 1_750_000_300)),
            ReadingListItem(
                url: URL(string: "http://example.org/")!, title: nil, previewText: nil,
                dateAdded: Date(timeIntervalSince1970: 1_750_000_200), isRead: true),
            ReadingListItem(
                url: URL(string: "https://例え.jp/ページ")!, title: "日本語のページ 🐟", previewText: "プレビュー",
                dateAdded: Date(timeIntervalSince1970: 1_750_000_200)),
            ReadingListItem(
                url: URL(string: "https://example.net/same-second")!, title: "Same second as the next",
                dateAdded: Date(timeIntervalSince1970: 1_750_000_100)),
            ReadingListItem(
                url: URL(string: "https://example.net/same-second-2")!, title: "Same second as the previous",
                dateAdded: Date(timeIntervalSince1970: 1_750_000_100), isRead: true),
        ])
    }

    @Test("the exported HTML imports back to the same list", arguments: [ReadingListFile.Format.html, .json])
    func roundTrip(format: ReadingListFile.Format) throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let original = ReadingList(databaseURL: folder.database)
        try Self.fill(original)
        let items = try original.items()
        #expect(items.count == 5)
        let exported = ReadingListFile.export(items, as: format)

        let copy = ReadingList(databaseURL: folder.url.appendingPathComponent("copy.sqlite"))
        let contents = try ReadingListFile.read(Data(exported.utf8), name: "export", format: nil)
        #expect(contents.refused.isEmpty)
        let summary = try copy.importItems(contents.items)
        #expect(summary == .init(added: 5, updated: 0))
        #expect(try copy.items().map(\.summary) == items.map(\.summary))
        #expect(try copy.items() == items)

        // Importing the same file again changes nothing and adds nothing.
        #expect(try copy.importItems(contents.items) == .init(added: 0, updated: 5))
        #expect(try copy.items() == items)
    }

    @Test("the HTML is a Netscape bookmark file that an independent HTML parser reads back exactly")
    func pythonParserReadsExport() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let list = ReadingList(databaseURL: folder.database)
        try Self.fill(list)
        let items = try list.items()
        let html = NetscapeBookmarks.export(items)
        #expect(html.hasPrefix("<!DOCTYPE NETSCAPE-Bookmark-file-1>\n"))
        #expect(html.contains("<META HTTP-EQUIV=\"Content-Type\" CONTENT=\"text/html; charset=UTF-8\">"))
        let file = folder.url.appendingPathComponent("bookmarks.html")
        try Data(html.utf8).write(to: file)

        // Python's html.parser, the way a bookmark importer reads the file: A tags with HREF and
        // ADD_DATE, their text, and the DD after each.
        let script = Fixture.url("bookmark-reader.py").path
        let python = URL(fileURLWithPath: "/usr/bin/python3")
        let result = try await run(python, [script, file.path], in: folder)
        #expect(result.status == 0, "\(result)")
        let links = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
        #expect(links.count == items.count)
        for (link, item) in zip(links, items) {
            let attributes = try #require(link["attrs"] as? [String: String?])
            #expect(attributes["href"] == item.url.absoluteString)
            #expect(attributes["add_date"] == String(Int(item.dateAdded.timeIntervalSince1970)))
            #expect(attributes["toread"] == (item.isRead ? "0" : "1"))
            #expect(link["text"] as? String == (item.title ?? ""))
            let description = (link["dd"] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(description == item.previewText)
        }
    }

    @Test("a browser's export: links in nested folders, icons and unquoted attributes; other schemes skipped")
    func browserExport() throws {
        let html = """
            <!DOCTYPE NETSCAPE-Bookmark-file-1>
            <!-- This is an automatically generated file. -->
            <META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'self'">
            <TITLE>Bookmarks</TITLE>
            <H1>Bookmarks Menu</H1>
            <DL><p>
                <DT><H3 ADD_DATE="1600000000" LAST_MODIFIED="1700000000" PERSONAL_TOOLBAR_FOLDER="true">Toolbar</H3>
                <DL><p>
                    <DT><A HREF="https://www.swift.org/" ADD_DATE="1700000001" LAST_MODIFIED="1700000002" ICON_URI="https://www.swift.org/favicon.ico" ICON="data:image/png;base64,iVBORw0KGgo=">Swift.org - Welcome</A>
                    <DT><A HREF="javascript:void(location.href='https://example.com/?u='+encodeURIComponent(location.href))">Share bookmarklet</A>
                    <DT><A HREF="place:sort=8&amp;maxResults=10">Recent Tags</A>
                    <DT><H3>Nested</H3>
                    <DL><p>
                        <dt><a href=https://example.com/unquoted add_date=1700000003>Unquoted &#x26; lower-case</a>
                        <DD>A description
                        spanning lines &#169; 2026
                    </DL><p>
                    <DT><A HREF="ftp://ftp.debian.org/debian/" ADD_DATE="1700000004">Debian FTP</A>
                    <DT><A HREF="https://example.com/ms" ADD_DATE="1700000005000">Milliseconds</A>
                    <DT><A HREF="https://example.com/us" ADD_DATE="1700000006000000" TOREAD="0">Microseconds, read</A>
                </DL><p>
            </DL><p>
            """
        let contents = try ReadingListFile.read(Data(html.utf8), name: "bookmarks.html")
        #expect(
            contents.items.map(\.summary) == [
                "https://www.swift.org/ | Swift.org - Welcome | - | 1700000001 | unread",
                "https://example.com/unquoted | Unquoted & lower-case | A description\n            spanning lines © 2026 | 1700000003 | unread",
                "https://example.com/ms | Milliseconds | - | 1700000005 | unread",
                "https://example.com/us | Microseconds, read | - | 1700000006 | read",
            ])
        #expect(
            contents.refused.map(\.address) == [
                "javascript:void(location.href='https://example.com/?u='+encodeURIComponent(location.href))",
                "place:sort=8&maxResults=10", "ftp://ftp.debian.org/debian/",
            ])
        #expect(contents.refused.allSatisfy { $0.reason.contains("only http and https") }, "\(contents.refused)")
    }

    @Test("a file that is neither a bookmark file nor reading-list JSON is bad data naming it")
    func notABookmarkFile() {
        for (text, format) in [
            ("<html><body><a href=\"https://example.com\">x</a></body></html>", ReadingListFile.Format?.none),
            ("[{\"title\": \"no url\"}]", nil), ("{\"url\": \"https://example.com\"}", .json),
            ("[1, 2]", nil),
        ] {
            let error = #expect(throws: ShareError.self) {
                try ReadingListFile.read(Data(text.utf8), name: "notes.txt", format: format)
            }
            #expect(error?.kind == .badData)
            #expect(error?.message.hasPrefix("notes.txt: ") == true, "\(error?.message ?? "")")
        }
    }

    @Test("JSON lists each entry with its fields; missing optional fields get defaults on import")
    func jsonShape() throws {
        let item = ReadingListItem(
            url: URL(string: "https://example.com/a")!, title: "A \"title\"", previewText: nil,
            dateAdded: Date(timeIntervalSince1970: 1_750_000_000), isRead: true)
        #expect(
            ReadingListJSON.export([item]) == """
                [
                  {"dateAdded":"2025-06-15T15:06:40Z","read":true,"title":"A \\"title\\"","url":"https://example.com/a"}
                ]

                """)
        #expect(ReadingListJSON.export([]) == "[]\n")
        let contents = try ReadingListFile.read(
            Data(#"[{"url": "https://example.com/b"}, {"url": "ftp://x.example/"}]"#.utf8), name: "x")
        #expect(contents.items.count == 1)
        #expect(contents.items.first?.isRead == false)
        #expect(contents.items.first?.title == nil)
        #expect(contents.refused.map(\.address) == ["ftp://x.example/"])
    }

    /// Found by `fuzz-bookmarks` (Tests/Fuzz/corpus/bookmarks/unterminated-quote.html): the
    /// scanner stepped past the end over the missing closing quote, and reading the link text
    /// from there trapped ("Range requires lowerBound <= upperBound").
    @Test("a file that ends inside a quoted attribute is read up to its end")
    func endsInsideQuotedAttribute() throws {
        for quote in ["\"", "'"] {
            let html = "<!DOCTYPE NETSCAPE-Bookmark-file-1><DT><A HREF=\(quote)https://example.com/"
            let entries = try NetscapeBookmarks.parse(html, name: "cut.html")
            #expect(entries == [NetscapeBookmarks.Entry(href: "https://example.com/", title: nil, description: nil)])
        }
    }

    /// Found by `fuzz-bookmarks` (Tests/Fuzz/corpus/bookmarks/huge-add-date.html): a date past
    /// `Int.max` seconds was taken, and exporting (or storing) it trapped converting it to an `Int`.
    @Test("an ADD_DATE too far in the future (or infinite) is no date; the link is still read and exported")
    func hugeAddDate() throws {
        for date in ["1e300", "inf", "99999999999999999999999"] {
            let html = "<!DOCTYPE NETSCAPE-Bookmark-file-1><DT><A HREF=\"https://example.com/\" ADD_DATE=\"\(date)\">x</A>"
            let contents = try ReadingListFile.read(Data(html.utf8), name: "far.html", format: .html)
            #expect(contents.items.map(\.url.absoluteString) == ["https://example.com/"])
            #expect(try NetscapeBookmarks.parse(html, name: "far.html").first?.dateAdded == nil)
            #expect(NetscapeBookmarks.export(contents.items).contains("https://example.com/"))
        }
        #expect(NetscapeBookmarks.date(fromAddDate: "1700000000123456") == Date(timeIntervalSince1970: 1_700_000_000.123456))
    }

    /// Found by `fuzz-bookmarks` in CI (Tests/Fuzz/corpus/bookmarks/tiny-add-date.html): an
    /// ADD_DATE of `1e-300` was taken, kept as second 0, exported as `ADD_DATE="0"`, and read
    /// back as no date at all (so, today).
    @Test("an ADD_DATE under one second is no date, so the export reads back the same")
    func tinyAddDate() throws {
        for date in ["1e-300", "0.5", "0", "-3"] {
            #expect(NetscapeBookmarks.date(fromAddDate: date) == nil, "\(date)")
        }
        #expect(NetscapeBookmarks.date(fromAddDate: "1") == Date(timeIntervalSince1970: 1))
        let html = "<!DOCTYPE NETSCAPE-Bookmark-file-1><DT><A HREF=\"https://example.com/\" ADD_DATE=\"1e-300\">x</A>"
        #expect(try NetscapeBookmarks.parse(html, name: "tiny.html").first?.dateAdded == nil)
        let read = try ReadingListFile.read(Data(html.utf8), name: "tiny.html", format: .html)
        #expect(!NetscapeBookmarks.export(read.items).contains("ADD_DATE=\"0\""))
    }

    /// Found by `fuzz-bookmarks` in CI (Tests/Fuzz/corpus/bookmarks/percent-encoded-punycode-host.html):
    /// a host with a percent-encoded character in an `xn--` label decodes, on the first reading,
    /// to a label that is not punycode; it was taken on import, and our own export of it was
    /// refused on the next import. Refused at once now (a browser's URL parser refuses it too),
    /// and the good links of the same file are all kept.
    @Test("an xn-- host that is not valid punycode is refused on import, as it would be on importing the export")
    func invalidPunycodeHost() throws {
        let links = [
            "https://xn--bcher-kva.example/", "https://XN--BCHER-KVA.example/b", "https://b%C3%BCcher.example/c",
            "https://xn--bcher-kv5%55c-b-kva.example/", "https://xn--zz.example/", "https://xn--a%55.example/",
            "https://example.com/Path",
        ]
        let html = "<!DOCTYPE NETSCAPE-Bookmark-file-1><DL>"
            + links.map { "<DT><A HREF=\"\($0)\" ADD_DATE=\"1700000000\">\($0)</A>\n" }.joined() + "</DL>"
        let contents = try ReadingListFile.read(Data(html.utf8), name: "idn.html", format: .html)
        #expect(
            contents.items.map(\.url.absoluteString) == [
                "https://xn--bcher-kva.example/", "https://xn--bcher-kva.example/b", "https://xn--bcher-kva.example/c",
                "https://example.com/Path",
            ])
        #expect(
            contents.refused.map(\.address) == [
                "https://xn--bcher-kv5%55c-b-kva.example/", "https://xn--zz.example/", "https://xn--a%55.example/",
            ])
        #expect(
            contents.refused.map(\.reason) == [
                "not a web page address (its host xn--bcher-kv5uc-b-kva.example is not a valid domain name)",
                "not a web page address (its host xn--zz.example is not a valid domain name)",
                "not a web page address (its host xn--au.example is not a valid domain name)",
            ], "\(contents.refused)")

        // The fuzz target's oracle: what is taken reads back from our own export, all of it, the same.
        for input in [Data(html.utf8), try Data(contentsOf: Self.corpus("percent-encoded-punycode-host.html"))] {
            let taken = try ReadingListFile.read(input, name: "input.html", format: .html)
            let reread = try ReadingListFile.read(
                Data(NetscapeBookmarks.export(taken.items).utf8), name: "exported.html", format: .html)
            #expect(reread.refused.isEmpty, "\(reread.refused)")
            #expect(reread.items.map(\.url) == taken.items.map(\.url))
        }
    }

    /// A file of the bookmark reader's fuzz corpus.
    static func corpus(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/corpus/bookmarks/\(name)")
    }

    @Test("entities decode, and text escapes for HTML")
    func escaping() {
        #expect(NetscapeBookmarks.escapeText("a & b < c > d \"e\"") == "a &amp; b &lt; c &gt; d \"e\"")
        #expect(NetscapeBookmarks.escapeAttribute("x\"y'z&") == "x&quot;y&#39;z&amp;")
        #expect(
            NetscapeBookmarks.decodeEntities("&amp;lt; &lt;&#65;&#x42;&QUOT; &unknown; & alone")
                == "&lt; <AB\" &unknown; & alone")
    }
}
