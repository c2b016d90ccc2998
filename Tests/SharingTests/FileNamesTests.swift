import Foundation
import ShareSheet
import Testing

@testable import Sharing

/// Names with line breaks: shown escaped, sent with a space, from every way an item comes in.
@Suite struct FileNamesTests {
    @Test func shownEscapesLineBreaksAndControls() {
        #expect(FileNames.shown("a\nb.txt") == "a\\nb.txt")
        #expect(FileNames.shown("a\r\nb\tc\u{1B}d") == "a\\r\\nb\\tc\\u{1B}d")
        #expect(FileNames.shown("café ü.txt") == "café ü.txt")
    }

    @Test func sendableTurnsEachLineBreakIntoOneSpace() {
        #expect(FileNames.sendable("a\r\nb\nc\rd.txt") == "a b c d.txt")
        #expect(FileNames.sendable("bell\u{07}.txt") == "bell.txt")
        #expect(FileNames.sendable("plain.txt") == "plain.txt")
    }

    @Test func aSendersNameKeepsItsWords() {
        #expect(ItemResolver.safeFilename("q3\nfinal.pdf") == "q3 final.pdf")
        #expect(ItemResolver.safeFilename("folder/a\u{7F}b.pdf") == "ab.pdf")
        #expect(ItemResolver.safeFilename("\n") == "item")
    }

    @Test func namedBytesAreLabelledEscaped() async throws {
        let item = try await ItemResolver().resolve(.bytes(Data([0, 1, 2]), name: "q3\nfinal.bin", mimeType: nil))
        #expect(item.label == "q3\\nfinal.bin")
        #expect((item.value as? DataItem)?.filename == "q3 final.bin")
    }
}
