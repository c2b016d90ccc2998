import Foundation
import LocalTestSupport
import Testing

@testable import Contacts

/// khard (the Debian package) reading the folder after `share` set photos in it.
@Suite("khard lists the contacts and reads their photos", .serialized)
struct KhardTests {
    /// `Tests/Fixtures/khard-reader.py`: khard's own code reading the folder, printing per contact
    /// what it read from the PHOTO property, as JSON.
    static let reader = Fixture.url("khard-reader.py")

    struct KhardContact: Decodable {
        var uid: String
        var name: String
        var version: String
        var file: String
        var photoBytes: String?
        var photoText: String?
    }

    /// The interpreter khard runs with (its `#!` line), so its modules are found.
    static func khardPython(_ khard: String) throws -> String {
        let head = try String(contentsOfFile: khard, encoding: .utf8).split(separator: "\n").first ?? ""
        guard head.hasPrefix("#!") else { return "/usr/bin/python3" }
        return String(head.dropFirst(2).split(separator: " ").first ?? "/usr/bin/python3")
    }

    @Test("after share set the photos of a 3.0 card, a 4.0 card and a new card")
    func khardReadsPhotos() async throws {
        let khard = try #require(Command.find("khard"), "khard is not installed (scripts/bootstrap installs it)")
        let folder = try TemporaryFolder("contacts-tests")
        defer { folder.remove() }
        let share = ShareRun(folder: folder.url)
        let book = folder.file("book")
        try FileManager.default.createDirectory(at: book, withIntermediateDirectories: true)
        try Data(Cards.richV3.utf8).write(to: book.appendingPathComponent("rich-3.vcf"))
        try Data(Cards.plainV4.utf8).write(to: book.appendingPathComponent("plain-4.vcf"))
        try share.configure("[contacts]\nfolder=\(book.path)\n")
        try TestImages.make(width: 1600, height: 1200).write(to: folder.file("landscape.png"))
        try TestImages.make(width: 900, height: 2000, format: "jpeg").write(to: folder.file("portrait"))
        try TestImages.make(width: 300, height: 200, format: "jpeg").write(to: folder.file("small.jpg"))

        let first = try await share("--activity", "contact", "--to", "zoe@example.org", "landscape.png")
        #expect(first.status == 0, "\(first)")
        #expect(first.standardOutput == book.appendingPathComponent("rich-3.vcf").path + "\n")
        let second = try await share("--activity", "contact", "--set", "contact=Bo Chen", "portrait")
        #expect(second.status == 0, "\(second)")
        let third = try await share("--activity", "contact", "--set", "contact=Cy Twombly", "small.jpg")
        #expect(third.status == 0, "\(third)")
        let newCard = URL(fileURLWithPath: third.standardOutput.trimmingCharacters(in: .newlines))
        let newUID = newCard.deletingPathExtension().lastPathComponent

        // Every line but PHOTO is still what the other programs wrote.
        for (name, original) in [("rich-3.vcf", Cards.richV3), ("plain-4.vcf", Cards.plainV4)] {
            let now = [UInt8](try Data(contentsOf: book.appendingPathComponent(name)))
            #expect(now.logicalLines.filter { !$0.isPhotoLine } == Array(original.utf8).logicalLines.filter { !$0.isPhotoLine })
            #expect(now.logicalLines.filter(\.isPhotoLine).count == 1)
        }

        let configuration = folder.file("khard.conf")
        try Data("[addressbooks]\n[[test]]\npath = \(book.path)\n".utf8).write(to: configuration)
        var environment = share.environment
        environment["HOME"] = folder.file("khard-home").path

        let list = try await Command.run(khard, ["-c", configuration.path, "list", "--parsable"], environment: environment)
        #expect(list.status == 0, "\(list)")
        let rows = Set(list.standardOutput.split(separator: "\n").map(String.init))
        #expect(rows == ["rich-3\tZoë Ångström\ttest", "plain-4\tBo Chen\ttest", "\(newUID)\tCy Twombly\ttest"], "\(list)")

        let python = try Self.khardPython(khard)
        let read = try await Command.run(python, [Self.reader.path, configuration.path], environment: environment)
        #expect(read.status == 0, "\(read)")
        let contacts = try JSONDecoder().decode([KhardContact].self, from: Data(read.standardOutput.utf8))
        #expect(contacts.count == 3)

        // vCard 3.0: khard decodes the base64 photo; it is the JPEG share wrote, at most 720 px.
        for (uid, width, height) in [("rich-3", 720, 540), (newUID, 300, 200)] {
            let contact = try #require(contacts.first { $0.uid == uid }, "khard did not read \(uid)")
            #expect(contact.version == "3.0")
            let bytes = try #require(contact.photoBytes.flatMap { Data(base64Encoded: $0) }, "khard read no photo of \(uid)")
            let size = try #require(TestImages.jpegSize(bytes), "khard's photo of \(uid) is not a JPEG")
            #expect(size.width == width && size.height == height, "\(uid): \(size)")
            let ours = try ContactBook(folder: book).read(URL(fileURLWithPath: contact.file)).contact
            #expect(ours.photo?.data == bytes)
        }

        // vCard 4.0: khard finds the card and prints it; the photo is a data: URI.
        let bo = try #require(contacts.first { $0.uid == "plain-4" })
        #expect(bo.version == "4.0")
        #expect(bo.photoText?.hasPrefix("data:image/jpeg") == true, "\(bo)")
        let shown = try await Command.run(
            khard, ["-c", configuration.path, "show", "--format", "vcard", "uid:plain-4"], environment: environment)
        #expect(shown.status == 0, "\(shown)")
        let unfolded = shown.standardOutput.replacingOccurrences(of: "\r\n ", with: "").replacingOccurrences(of: "\n ", with: "")
        let photoLine = try #require(unfolded.split(whereSeparator: \.isNewline).first { $0.hasPrefix("PHOTO:") })
        #expect(photoLine.hasPrefix("PHOTO:data:image/jpeg;base64,"))
        let payload = photoLine.split(separator: ",", maxSplits: 1).last.map(String.init) ?? ""
        let jpeg = try #require(Data(base64Encoded: payload.trimmingCharacters(in: .whitespacesAndNewlines)))
        let size = try #require(TestImages.jpegSize(jpeg))
        #expect(size.width == 324 && size.height == 720, "\(size)")
    }
}
