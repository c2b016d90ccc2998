import Foundation
import LocalTestSupport
import ShareSheetSystem
import Testing

@testable import ShareSuggestions

/// The contacts index: made from every card once, read from its file by the next process, made
/// again when the folder changes, and never trusted when broken. Serialized: the count of
/// rebuilds is the process's.
@Suite("The contacts index", .serialized)
struct ContactIndexTests {
    let home: TemporaryHome
    let directories: XDGDirectories
    let folder: URL

    init() throws {
        home = try TemporaryHome(prefix: "contact-index")
        directories = XDGDirectories(environment: home.environment)
        folder = directories.dataHome.appendingPathComponent("contacts/default", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// A JPEG's first and last bytes around some others: the index copies bytes, never decodes.
    static let photo = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x02, 0xFF, 0xD9])

    /// Writes a card as khard does: a temporary file, then a rename into the folder.
    func writeCard(_ uid: String, name: String, email: String, photo: Data? = nil) throws {
        var card = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(uid)\r\nFN:\(name)\r\nEMAIL:\(email)\r\n"
        if let photo { card += "PHOTO;ENCODING=b;TYPE=JPEG:\(photo.base64EncodedString())\r\n" }
        card += "END:VCARD\r\n"
        let temporary = folder.appendingPathComponent(".\(uid).tmp")
        try Data(card.utf8).write(to: temporary)
        #expect(rename(temporary.path, folder.appendingPathComponent(uid + ".vcf").path) == 0)
    }

    /// Dates the folder's last change an hour back, as if the cards had been written long before
    /// the sheet: the index made next is trusted by the sheet after it.
    func settleFolder() {
        var times = [timespec(tv_sec: time(nil) - 3600, tv_nsec: 0), timespec(tv_sec: time(nil) - 3600, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, folder.path, &times, 0) == 0)
    }

    /// The contacts as the next process would read them (nothing of this process kept).
    func loadedFresh() -> ContactDirectory {
        ContactIndex.forgetKept()
        return ContactIndex.directory(folder: folder, directories: directories)
    }

    func names(_ directory: ContactDirectory) -> [String] { directory.all.map(\.name).sorted() }

    @Test("made from every card once; the next process reads its file, this one what it kept")
    func madeOnce() throws {
        defer { home.remove() }
        try writeCard("ana", name: "Ana Lima", email: "ana@example.com")
        try writeCard("bo", name: "Bo Chen", email: "bo@example.com")
        settleFolder()
        let before = ContactIndex.rebuilds
        #expect(names(loadedFresh()) == ["Ana Lima", "Bo Chen"])
        #expect(ContactIndex.rebuilds == before + 1)
        #expect(FileManager.default.fileExists(atPath: ContactIndex.indexURL(in: directories).path))
        #expect(names(loadedFresh()) == ["Ana Lima", "Bo Chen"])
        #expect(names(ContactIndex.directory(folder: folder, directories: directories)) == ["Ana Lima", "Bo Chen"])
        #expect(ContactIndex.rebuilds == before + 1)
        #expect(loadedFresh().contact(for: "ANA@example.com")?.name == "Ana Lima")
    }

    @Test("a card added, removed or replaced by a rename makes it again, in a new process and in this one")
    func changes() throws {
        defer { home.remove() }
        try writeCard("ana", name: "Ana Lima", email: "ana@example.com")
        settleFolder()
        _ = loadedFresh()
        let start = ContactIndex.rebuilds

        try writeCard("bo", name: "Bo Chen", email: "bo@example.com")
        #expect(names(loadedFresh()) == ["Ana Lima", "Bo Chen"])
        #expect(ContactIndex.rebuilds == start + 1)

        settleFolder()
        _ = loadedFresh()
        #expect(unlink(folder.appendingPathComponent("bo.vcf").path) == 0)
        #expect(names(ContactIndex.directory(folder: folder, directories: directories)) == ["Ana Lima"])

        settleFolder()
        _ = loadedFresh()
        let settled = ContactIndex.rebuilds
        #expect(names(loadedFresh()) == ["Ana Lima"])
        #expect(ContactIndex.rebuilds == settled, "a settled, unchanged folder is read from the index")
        try writeCard("ana", name: "Ana Lima Souza", email: "ana@example.com")
        #expect(names(loadedFresh()) == ["Ana Lima Souza"])
        #expect(ContactIndex.rebuilds == settled + 1)
    }

    @Test("an index file that is broken or cut is made again, without a word")
    func brokenIndex() throws {
        defer { home.remove() }
        try writeCard("ana", name: "Ana Lima", email: "ana@example.com")
        settleFolder()
        _ = loadedFresh()
        let index = ContactIndex.indexURL(in: directories)
        let whole = try Data(contentsOf: index)
        for broken in [Data("not an index\n".utf8), whole.prefix(whole.count - 7), Data()] {
            try broken.write(to: index)
            let before = ContactIndex.rebuilds
            #expect(names(loadedFresh()) == ["Ana Lima"])
            #expect(ContactIndex.rebuilds == before + 1)
            #expect(try Data(contentsOf: index) == whole)
        }
    }

    @Test("a contact's photo is written once under the cache and named by photoPath; gone with the card's photo")
    func photos() throws {
        defer { home.remove() }
        try writeCard("ana", name: "Ana Lima", email: "ana@example.com", photo: Self.photo)
        try writeCard("bo", name: "Bo Chen", email: "bo@example.com")
        let directory = loadedFresh()
        let path = try #require(directory.contact(for: "ana@example.com")?.photoPath)
        #expect(path.hasPrefix(ContactIndex.avatarFolder(in: directories).path + "/"))
        #expect(path.hasSuffix(".jpg"))
        #expect(FileManager.default.contents(atPath: path) == Self.photo)
        #expect(directory.contact(for: "bo@example.com")?.photoPath == nil)
        // The next index names the same file, written once.
        let written = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        try writeCard("cy", name: "Cy Doe", email: "cy@example.com")
        #expect(loadedFresh().contact(for: "ana@example.com")?.photoPath == path)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date == written)
        try writeCard("ana", name: "Ana Lima", email: "ana@example.com")
        #expect(loadedFresh().contact(for: "ana@example.com")?.photoPath == nil)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("no folder, no contacts and no index")
    func missingFolder() throws {
        defer { home.remove() }
        try FileManager.default.removeItem(at: folder)
        #expect(loadedFresh().all.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: ContactIndex.indexURL(in: directories).path))
    }
}
