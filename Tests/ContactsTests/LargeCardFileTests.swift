import Foundation
import LocalTestSupport
import ShareSheet
import Testing

@testable import Contacts

/// A card file far larger than any contact, read through `share contacts list` as a person would:
/// its memory must not grow with the file.
@Suite("Large card files: read in bounded memory")
struct LargeCardFileTests {
    /// The peak a `share contacts list` may reach. A run over an empty folder peaks near 40 MiB
    /// (the Swift runtime, Foundation, GLib and the backends); the file below is 64 MB.
    static let peakBound = 128 * 1_048_576

    @Test("a 64 MB export of 40 000 cards, with 1 MB photos, is skipped with its warning in bounded memory")
    func largeExportSkipped() async throws {
        let folder = try TemporaryFolder("contacts-tests")
        defer { folder.remove() }
        let share = ShareRun(folder: folder.url)
        try FileManager.default.createDirectory(at: share.defaultContacts, withIntermediateDirectories: true)
        let export = share.defaultContacts.appendingPathComponent("export.vcf")
        let size = try LargeExport.write(to: export, cards: 40_000, photoEvery: 1000, photoBytes: 1_000_000)
        #expect(size > 60_000_000)
        try Data(Cards.simple(uid: "ana", name: "Ana Lima", email: "ana@example.com").utf8)
            .write(to: share.defaultContacts.appendingPathComponent("ana.vcf"))

        let list = try await share.measuringMemory("contacts", "list")
        #expect(list.run.status == 0, "\(list)")
        #expect(list.run.standardOutput == "Ana Lima  ana@example.com  -  ana.vcf\n", "\(list)")
        #expect(
            list.run.standardError
                == "share: warning: \(export.path): skipped, it holds more than one card, or a card inside a card (END on line 7)\n",
            "\(list)")
        #expect(list.peakBytes > 0 && list.peakBytes < Self.peakBound, "\(list)")
    }
}

/// The reader that streams gives what reading the whole file gives, wherever the chunks end.
@Suite("Card files read a chunk at a time")
struct CardFileTests {
    /// Cards whose line breaks and folds land on every chunk boundary at some chunk size: CRLF
    /// and LF, folds with a space and a tab, a fold inside a UTF-8 sequence, base64 photos in
    /// 3.0 and 4.0 syntax, blank lines, and every malformed card.
    static let corpus: [(name: String, bytes: [UInt8])] = {
        var cards: [(String, [UInt8])] = [
            ("rich-v3", Array(Cards.richV3.utf8)),
            ("plain-v4", Array(Cards.plainV4.utf8)),
            ("latin1", Cards.latin1),
            ("bom", [0xEF, 0xBB, 0xBF] + Array(Cards.plainV4.utf8)),
            ("empty", []),
            ("blank lines", Array("\r\n  \r\nBEGIN:VCARD\r\nVERSION:3.0\r\nFN:Blank Lines\r\n\r\nEND:VCARD\r\n\r\n".utf8)),
            ("fold splits é", Array("BEGIN:VCARD\nVERSION:4.0\nFN:Jos".utf8) + [0xC3, 0x0A, 0x20, 0xA9] + Array("\nEND:VCARD".utf8)),
            ("v4 photo", Array(Cards.simple(uid: "p4", name: "Pia Four", email: "pia@example.com", version: "4.0").utf8)),
        ]
        let photo = Data((0..<700).map { UInt8($0 % 251) })
        let v4 = VCardLine.photoCard(version: "4.0", value: "data:image/png;base64," + photo.base64EncodedString())
        let v3 = VCardLine.photoCard(version: "3.0;", value: photo.base64EncodedString(), parameters: ";ENCODING=b;TYPE=PNG")
        cards += [("v4 base64 photo", v4), ("v3 base64 photo", v3)]
        cards += Cards.malformed.map { ($0.name, Array($0.text.utf8)) }
        return cards
    }()

    @Test("every card reads the same in chunks of 1, 2, 3, 5, 64 and 65 536 bytes as whole", arguments: [1, 2, 3, 5, 64, 65_536])
    func sameInChunks(_ chunkSize: Int) throws {
        let folder = try TemporaryFolder("contacts-tests")
        defer { folder.remove() }
        for (name, bytes) in Self.corpus {
            let url = folder.file(name + ".vcf")
            try Data(bytes).write(to: url)
            let whole = Result { try ContactBook(folder: folder.url).read(url).contact }
            let streamed = Result { try CardFile.contact(at: url, chunkSize: chunkSize) }
            switch (whole, streamed) {
            case (.success(let expected), .success(let contact)):
                #expect(contact == expected, "\(name)")
            case (.failure(let expected as ShareError), .failure(let error as ShareError)):
                #expect(error.kind == expected.kind && error.message == expected.message, "\(name)")
            default:
                Issue.record("\(name): whole \(whole), streamed \(streamed)")
            }
        }
    }

    @Test("what a streamed card holds: names, addresses, the decoded photo, folded and CRLF")
    func streamedContents() throws {
        let folder = try TemporaryFolder("contacts-tests")
        defer { folder.remove() }
        let url = folder.file("rich.vcf")
        try Data(Cards.richV3.utf8).write(to: url)
        let contact = try CardFile.contact(at: url, chunkSize: 7)
        #expect(contact.formattedName == "Zoë Ångström")
        #expect(contact.nameComponents == ["Ångström", "Zoë", "", "", ""])
        #expect(contact.emailAddresses == ["zoe@example.org"])
        #expect(contact.uid == "rich-3")
        #expect(contact.version == .v3)
        let png = try #require(contact.photo?.data)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count == 70)
    }
}

/// Small cards with a folded photo, for the chunk tests.
enum VCardLine {
    static func photoCard(version: String, value: String, parameters: String = "") -> [UInt8] {
        let head = "BEGIN:VCARD\r\nVERSION:\(version.trimmingCharacters(in: [";"]))\r\nFN:Photo \(version)\r\n"
        return Array(head.utf8) + [UInt8](ContentLinesForTests.fold("PHOTO\(parameters):" + value)) + Array("END:VCARD\r\n".utf8)
    }
}
