import Foundation
import LocalTestSupport
import ShareSheetSystem
import Testing

@Suite("FileCache")
struct FileCacheTests {
    @Test("an unchanged file is made once; a changed one again; a missing one is nil")
    func remakesOnlyWhenTheFileChanges() throws {
        let folder = try TemporaryFolder.make("filecache")
        defer { TemporaryFolder(existing: folder).remove() }
        let file = folder.appendingPathComponent("config")
        var made = 0
        func read() throws -> String? {
            try FileCache.value(at: file.path) { () -> String in
                made += 1
                return try String(contentsOf: file, encoding: .utf8)
            }
        }
        #expect(try read() == nil)
        try "one".write(to: file, atomically: true, encoding: .utf8)
        #expect(try read() == "one")
        #expect(try read() == "one")
        #expect(made == 1)
        // Replaced atomically (a new inode), as editors and AtomicFile do.
        try "two".write(to: file, atomically: true, encoding: .utf8)
        #expect(try read() == "two")
        #expect(made == 2)
        // Rewritten in place with the same size: the change time still tells.
        try Data("six".utf8).write(to: file)
        #expect(try read() == "six")
        #expect(made == 3)
        try FileManager.default.removeItem(at: file)
        #expect(try read() == nil)
    }
}
