import Foundation
import LocalTestSupport
import ShareSheet
import ShareSheetSystem
import Testing

@testable import Contacts

@Suite("The contacts folder: photos scaled, cards rewritten atomically, bad cards left alone")
struct ContactBookTests {
    private func photo(of contact: Contact) throws -> (data: Data, width: Int, height: Int) {
        let data = try #require(contact.photo?.data, "\(contact) has no embedded photo")
        let size = try #require(TestImages.jpegSize(data), "the photo of \(contact) is not a JPEG")
        return (data, size.width, size.height)
    }

    @Test(
        "images are scaled to at most 720 px on the longer side, keeping their aspect; smaller ones keep their size",
        arguments: [
            (1600, 900, "png", true, 720, 405),
            (900, 2000, "jpeg", false, 324, 720),
            (720, 720, "png", false, 720, 720),
            (300, 200, "jpeg", false, 300, 200),
            (5000, 3, "png", false, 720, 1),
        ])
    func scaling(_ width: Int, _ height: Int, _ format: String, _ alpha: Bool, _ expectedWidth: Int, _ expectedHeight: Int) throws {
        let folder = try TemporaryFolder("contacts-tests")
        defer { folder.remove() }
        let book = ContactBook(folder: folder.url)
        let image = TestImages.make(width: width, height: height, format: format, alpha: alpha)
        let contact = try book.assignPhoto(image, named: "test.\(format)", to: "Ana Lima")
        let result = try photo(of: contact)
        #expect(result.width == expectedWidth)
        #expect(result.height == expectedHeight)
        #expect(contact.formattedName == "Ana Lima")
        #expect(contact.nameComponents == ["Lima", "Ana", "", "", ""])
        #expect(contact.fileURL.lastPathComponent == (contact.uid ?? "") + ".vcf")
    }

    @Test("transparent pixels are laid over white, not black")
    func transparencyOverWhite() throws {
        let folder = try TemporaryFolder("contacts-tests")
        defer { folder.remove() }
        let book = ContactBook(folder: folder.url)
        let image = TestImages.make(width: 100, height: 100, format: "png", alpha: true)
        let contact = try book.assignPhoto(image, named: "clear.png", to: "Clear Sky")
        let jpeg = try photo(of: contact).data
        // Decode it again and look at a pixel of the transparent left half.
        let rgb = try #require(TestImages.pixel(of: jpeg, x: 5, y: 50))
        #expect(rgb.red > 240 && rgb.green > 240 && rgb.blue > 240, "\(rgb)")
    }

    @Test("a corrupt image fails with bad data naming it, and writes nothing")
    func corruptImage() throws {
        let folder = try TemporaryFolder("contacts-tests")
        defer { folder.remove() }
        let book = ContactBook(folder: folder.url)
        let corrupt = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data("no chunks here".utf8)
        #expect {
            try book.assignPhoto(corrupt, named: "broken photo.png", to: "Ana Lima")
        } throws: { error in
            let shareError = error as? ShareError
            return shareError?.kind == .badData && shareError?.message.hasPrefix("broken photo.png: ") == true
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    @Test("malformed cards are skipped with their file named, and never rewritten")
    func malformedSkipped() throws {
        let folder = try TemporaryFolder("contacts-tests")
        defer { folder.remove() }
        for card in Cards.malformed {
            try Data(card.text.utf8).write(to: folder.file(card.name))
        }
        try Data(Cards.latin1).write(to: folder.file("latin1.vcf"))
        try Data(Cards.simple(uid: "ana", name: "Ana Lima", email: "ana@example.com").utf8).write(to: folder.file("ana.vcf"))
        let before = try snapshot(folder.url)

        let book = ContactBook(folder: folder.url)
        let listing = try book.load()
        #expect(listing.contacts.map(\.formattedName) == ["Ana Lima"])
        #expect(Set(listing.skipped.map(\.fileURL.lastPathComponent)) == Set(Cards.malformed.map(\.name) + ["latin1.vcf"]))
        for card in Cards.malformed {
            let skipped = try #require(listing.skipped.first { $0.fileURL.lastPathComponent == card.name })
            #expect(skipped.description.hasPrefix(folder.file(card.name).path + ": skipped, "))
            #expect(skipped.reason.contains(card.reason), "\(skipped)")
        }

        // A name only a malformed card has makes a new card; the malformed one stays as it was.
        let made = try book.assignPhoto(TestImages.make(width: 40, height: 40), named: "p.png", to: "Old Format")
        #expect(made.fileURL.lastPathComponent != "old.vcf")
        _ = try book.assignPhoto(TestImages.make(width: 40, height: 40), named: "p.png", to: "ana@example.com")
        let after = try snapshot(folder.url)
        for (name, bytes) in before where name != "ana.vcf" {
            #expect(after[name] == bytes, "\(name) changed")
        }
        #expect(after["ana.vcf"] != before["ana.vcf"])
        #expect(after.count == before.count + 1)
    }

    @Test("a rewrite keeps the file's permissions and leaves no temporary file behind")
    func permissionsAndNoTemporaryFiles() throws {
        let folder = try TemporaryFolder("contacts-tests")
        defer { folder.remove() }
        let url = folder.file("rich-3.vcf")
        try Data(Cards.richV3.utf8).write(to: url)
        chmod(url.path, 0o600)
        let book = ContactBook(folder: folder.url)
        let contact = try book.assignPhoto(TestImages.make(width: 800, height: 600), named: "p.png", to: "Zoë Ångström")
        #expect(contact.fileURL == url)
        var info = stat()
        #expect(stat(url.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["rich-3.vcf"])
    }

    @Test("a cancelled assignment writes nothing")
    func cancelledWritesNothing() throws {
        let folder = try TemporaryFolder("contacts-tests")
        defer { folder.remove() }
        let url = folder.file("rich-3.vcf")
        try Data(Cards.richV3.utf8).write(to: url)
        let book = ContactBook(folder: folder.url)
        let listing = try book.load()
        for target in [ContactBook.Target.existing(listing.contacts[0]), .new(name: "Nobody Yet", email: nil)] {
            #expect {
                try book.assignPhoto(TestImages.make(width: 10, height: 10), named: "p.png", to: target, isCancelled: { true })
            } throws: { ($0 as? ShareError)?.kind == .cancelled }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["rich-3.vcf"])
        #expect(try Data(contentsOf: url) == Data(Cards.richV3.utf8))
    }

    @Test("the configuration names the folder and the version of new cards; the default is XDG_DATA_HOME/contacts/default")
    func configuration() throws {
        let directories = XDGDirectories(environment: ["HOME": "/home/ana", "XDG_DATA_HOME": "/data"])
        let plain = try ContactBook.configured(Configuration([:]), directories: directories)
        #expect(plain.folder.path == "/data/contacts/default")
        #expect(plain.newCardVersion == .v3)
        let configured = try ContactBook.configured(
            Configuration(["contacts": ["folder": "~/.contacts/family", "version": "4.0"]]), directories: directories)
        #expect(configured.folder.path == "/home/ana/.contacts/family")
        #expect(configured.newCardVersion == .v4)
        #expect(throws: ShareError.self) {
            try ContactBook.configured(Configuration(["contacts": ["folder": "relative/path"]]), directories: directories)
        }
        #expect(throws: ShareError.self) {
            try ContactBook.configured(Configuration(["contacts": ["version": "2.1"]]), directories: directories)
        }
    }

    /// Every file of a folder and its bytes.
    private func snapshot(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return files
    }
}
