import Foundation
import LocalTestSupport
import ShareSheet
import ShareSheetTerminal
import ShareSheetTesting
import Testing

/// Columns as a terminal counts them, and the sheet cut, wrapped and folded to them (#14).
@MainActor
@Suite("the terminal sheet's width")
struct TerminalWidthTests {
    @Test func wideCharactersTakeTwoColumnsAndCombiningMarksNone() {
        #expect(TextWidth.columns(of: "abc") == 3)
        #expect(TextWidth.columns(of: "漢字") == 4)
        #expect(TextWidth.columns(of: "한국어") == 6)
        #expect(TextWidth.columns(of: "ｶﾀｶﾅ") == 4, "half-width katakana is narrow")
        #expect(TextWidth.columns(of: "ＡＢ") == 4, "full-width Latin is wide")
        #expect(TextWidth.columns(of: "👍") == 2)
        #expect(TextWidth.columns(of: "👨‍👩‍👧") == 2, "a ZWJ sequence is one emoji")
        #expect(TextWidth.columns(of: "🇫🇷") == 2)
        #expect(TextWidth.columns(of: "❤️") == 2, "VS16 makes it an emoji")
        #expect(TextWidth.columns(of: "e\u{301}") == 1, "a combining acute accent takes no column")
        #expect(TextWidth.columns(of: "a\u{200B}b") == 2)
        #expect(TextWidth.columns(of: "\u{1B}[1mbold\u{1B}[22m") == 4, "escape sequences take none")
    }

    @Test func truncationNeverSplitsAWideCharacterOrGoesOver() {
        let cut = TextWidth.truncate("漢字漢字漢字", to: 7)
        #expect(cut == "漢字漢…")
        #expect(TextWidth.columns(of: cut) <= 7)
        #expect(TextWidth.truncate("👍👍👍", to: 4) == "👍…")
        #expect(TextWidth.truncate("short", to: 10) == "short")
        #expect(TextWidth.truncate("ae\u{301}bcdef", to: 4) == "ae\u{301}b…")
    }

    @Test func wrappingBreaksAtSpacesAndInsideWordsOnlyWhenTheyAreTooLong() {
        #expect(TextWidth.wrap("one two three four", width: 9) == ["one two", "three", "four"])
        #expect(TextWidth.wrap("漢字漢字漢字 ok", width: 5) == ["漢字", "漢字", "漢字", "ok"])
        for line in TextWidth.wrap("日本語のテキストと emoji 👍👍👍 that wraps", width: 10) {
            #expect(TextWidth.columns(of: line) <= 10, "\(line)")
        }
    }

    // MARK: The rendered sheet

    private func renderedSheet(items: [Any], width: Int) -> String {
        let backends = InMemoryBackends()
        let registry = ActivityRegistry()
        backends.install(into: registry)
        let controller = ActivityViewController(activityItems: items, applicationActivities: [], registry: registry)
        return SheetScreen.render(controller.sheet, items: items, style: TerminalStyle(width: width))
    }

    @Test func theSheetFitsFortyColumnsWithWideNames() {
        let items: [Any] = [
            URL(fileURLWithPath: "/tmp/四半期の数字と来年度の予算案について.txt"),
            URL(fileURLWithPath: "/tmp/👍👍 party photos from the summer trip.txt"),
            "café au lait e\u{301}crit",
        ]
        let screen = renderedSheet(items: items, width: 40)
        for line in screen.split(separator: "\n") {
            #expect(TextWidth.columns(of: String(line)) <= 40, "too wide: \(line)\n\(screen)")
        }
        #expect(screen.contains("…"), "long names are cut:\n\(screen)")
        #expect(screen.contains("四半期"), "\(screen)")
    }

    @Test func aLongItemListIsFoldedToACount() {
        let items: [Any] = (1...12).map { URL(fileURLWithPath: "/tmp/file-\($0).txt") }
        let screen = renderedSheet(items: items, width: 80)
        #expect(screen.hasPrefix("Sharing 12 items:\n"), "\(screen)")
        #expect(screen.contains("  file-5.txt"), "\(screen)")
        #expect(!screen.contains("file-6.txt"), "\(screen)")
        #expect(screen.contains("  … and 7 more\n"), "\(screen)")
        // Eight or fewer are all shown.
        let eight = renderedSheet(items: Array(items.prefix(8)), width: 80)
        #expect(eight.contains("file-8.txt") && !eight.contains("more"), "\(eight)")
    }

    @Test func theCommandWrapsToColumnsUnderAPseudoTerminal() async throws {
        let folder = try TemporaryFolder.make("share-cli-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let names = ["四半期の数字と来年度の予算案についてのメモ.txt", "👍👍 party photos from the summer.txt"]
            + (1...10).map { "extra-\($0).txt" }
        for name in names { try Data("x\n".utf8).write(to: folder.appendingPathComponent(name)) }
        let script = try #require(ShareBinary.script)
        let binary = try #require(Share.url)
        let command = ([binary.path] + names).map(ShareBinary.shellQuoted).joined(separator: " ")
        let run = try await ShareBinary.run(
            ["-qec", command, "/dev/null"], in: folder, program: script, environment: ["COLUMNS": "40"])
        let screen = run.standardOutput.replacingOccurrences(of: "\r\n", with: "\n")
        #expect(screen.contains("Sharing 12 items:"), "\(screen)")
        #expect(screen.contains("… and 7 more"), "\(screen)")
        for line in screen.split(separator: "\n") where !line.hasPrefix("Pick an activity") {
            #expect(TextWidth.columns(of: String(line)) <= 40, "too wide: \(line)\n\(screen)")
        }
    }
}
