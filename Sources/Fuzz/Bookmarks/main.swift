// The Netscape bookmark reader (reading-list import) on arbitrary bytes. Invariants: it never
// traps; every entry is either taken or refused with a reason; what it takes, exported as a
// bookmark file again, reads back as the same items (address, title, description, read flag,
// date to the second).
import Foundation
import FuzzSupport
import ReadingList

enum BookmarksTarget {
    static func check(_ bytes: [UInt8]) {
        guard let contents = try? ReadingListFile.read(Data(bytes), name: "input.html", format: .html) else { return }
        for refusal in contents.refused {
            precondition(!refusal.reason.isEmpty, "\(refusal.address) was refused without a reason")
        }
        let exported = NetscapeBookmarks.export(contents.items)
        let reread: ReadingListFile.Contents
        do {
            reread = try ReadingListFile.read(Data(exported.utf8), name: "exported.html", format: .html)
        } catch {
            preconditionFailure("our own export does not read back: \(error)\n\(exported)")
        }
        precondition(reread.refused.isEmpty, "our own export has refused entries: \(reread.refused)")
        precondition(reread.items.count == contents.items.count, "\(contents.items.count) items exported, \(reread.items.count) read back")
        for (before, after) in zip(contents.items, reread.items) {
            precondition(
                before.url == after.url && before.title == after.title && before.previewText == after.previewText
                    && before.isRead == after.isRead
                    && Int(before.dateAdded.timeIntervalSince1970) == Int(after.dateAdded.timeIntervalSince1970),
                "exported and read back, \(before) \(String(reflecting: before.title)) \(String(reflecting: before.previewText)) became \(after) \(String(reflecting: after.title)) \(String(reflecting: after.previewText))")
        }
    }
}

/// One input; the name is libFuzzer's (its own `main`, unused here, refers to it).
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    BookmarksTarget.check(fuzzInput(data, size))
    return 0
}

runFuzzTarget(testOneInput)
