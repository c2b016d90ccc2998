import Foundation
import LocalTestSupport
import Testing

@testable import Contacts

/// `share --activity contact …` and `share contacts list|show`, run as a person would.
@Suite("share --activity contact and share contacts")
struct CommandLineTests {
    @Test("a new contact lands in the embedded default folder, and contacts list and show find it")
    func defaultFolderAndListing() async throws {
        let folder = try TemporaryFolder("contacts-tests")
        defer { folder.remove() }
        let share = ShareRun(folder: folder.url)
        try TestImages.make(width: 1000, height: 800).write(to: folder.file("a b;c.png"))

        let run = try await share("--activity", "contact", "--to", "ana@example.com", "a b;c.png")
        #expect(run.status == 0, "\(run)")
        #expect(run.standardError.isEmpty, "\(run)")
        let card = URL(fileURLWithPath: run.standardOutput.trimmingCharacters(in: .newlines))
        #expect(card.deletingLastPathComponent().standardizedFileURL.path == share.defaultContacts.standardizedFileURL.path)
        let uid = card.deletingPathExtension().lastPathComponent

        let list = try await share("contacts", "list")
        #expect(list.status == 0, "\(list)")
        let expectedRow = "ana@example.com  ana@example.com  JPEG 720×576, "
        #expect(list.standardOutput.hasPrefix(expectedRow), "\(list)")
        #expect(list.standardOutput.hasSuffix("  \(uid).vcf\n"), "\(list)")

        let show = try await share("contacts", "show", "ANA@example.com")
        #expect(show.status == 0, "\(show)")
        #expect(show.standardOutput.contains("UID: \(uid)\nvCard: 3.0\nFile: \(card.path)\nPhoto: JPEG 720×576, "), "\(show)")

        let json = try await share("contacts", "list", "--json")
        #expect(json.status == 0, "\(json)")
        let objects = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]]
        let photo = objects?.first?["photo"] as? [String: Any]
        #expect(objects?.count == 1)
        #expect(photo?["width"] as? Int == 720 && photo?["height"] as? Int == 576, "\(json)")
    }

    @Test("bad input: a corrupt image (65), a missing file (66), no contact named (64), an ambiguous name (64)")
    func badInput() async throws {
        let folder = try TemporaryFolder("contacts-tests")
        defer { folder.remove() }
        let share = ShareRun(folder: folder.url)
        try FileManager.default.createDirectory(at: share.defaultContacts, withIntermediateDirectories: true)
        for (uid, name) in [("a1", "Ana Lima"), ("a2", "Ana Souza")] {
            try Data(Cards.simple(uid: uid, name: name, email: nil).utf8).write(to: share.defaultContacts.appendingPathComponent("\(uid).vcf"))
        }
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]).write(to: folder.file("broken.png"))
        try TestImages.make(width: 50, height: 50).write(to: folder.file("ok.png"))

        let corrupt = try await share("--activity", "contact", "--set", "contact=Ana Lima", "broken.png")
        #expect(corrupt.status == 65, "\(corrupt)")
        #expect(corrupt.standardError.hasPrefix("share: broken.png: not an image that can be read: "), "\(corrupt)")
        #expect(corrupt.standardError.split(separator: "\n").count == 1)

        let missing = try await share("--activity", "contact", "--set", "contact=Ana Lima", "gone.png")
        #expect(missing.status == 66, "\(missing)")
        #expect(missing.standardError == "share: gone.png: no such file\n")

        let unnamed = try await share("--activity", "contact", "ok.png")
        #expect(unnamed.status == 64, "\(unnamed)")
        #expect(unnamed.standardError.contains("--set contact="), "\(unnamed)")

        let ambiguous = try await share("--activity", "contact", "--set", "contact=Ana", "ok.png")
        #expect(ambiguous.status == 64, "\(ambiguous)")
        #expect(ambiguous.standardError.contains("“Ana” matches 2 contacts: Ana Lima (a1), Ana Souza (a2)"), "\(ambiguous)")

        let unknown = try await share("contacts", "show", "Nobody")
        #expect(unknown.status == 66, "\(unknown)")
        #expect(unknown.standardError.hasPrefix("share: contacts show: no contact matches “Nobody”"), "\(unknown)")

        // Nothing was written by any of these.
        #expect(try FileManager.default.contentsOfDirectory(atPath: share.defaultContacts.path).sorted() == ["a1.vcf", "a2.vcf"])
    }

    @Test("a malformed card gets a warning naming it, and stays byte for byte as it was")
    func malformedWarned() async throws {
        let folder = try TemporaryFolder("contacts-tests")
        defer { folder.remove() }
        let share = ShareRun(folder: folder.url)
        let book = share.defaultContacts
        try FileManager.default.createDirectory(at: book, withIntermediateDirectories: true)
        let broken = book.appendingPathComponent("no-end.vcf")
        let brokenBytes = Data(Cards.malformed[0].text.utf8)
        try brokenBytes.write(to: broken)
        let modified = try FileManager.default.attributesOfItem(atPath: broken.path)[.modificationDate] as? Date
        try TestImages.make(width: 50, height: 50).write(to: folder.file("ok.png"))

        // The card's own name only: a new card is made, the broken one is not touched.
        let run = try await share("--activity", "contact", "--set", "contact=Cut Short", "ok.png")
        #expect(run.status == 0, "\(run)")
        #expect(run.standardError.contains("warning: \(broken.path): skipped, it does not end with END:VCARD"), "\(run)")
        #expect(try Data(contentsOf: broken) == brokenBytes)
        #expect(try FileManager.default.attributesOfItem(atPath: broken.path)[.modificationDate] as? Date == modified)

        let list = try await share("contacts", "list")
        #expect(list.status == 0)
        #expect(list.standardError == "share: warning: \(broken.path): skipped, it does not end with END:VCARD\n")
        #expect(list.standardOutput.hasPrefix("Cut Short  -  JPEG 50×50, "), "\(list)")
    }
}
