import Foundation
import ShareSheet
import Testing

@testable import Contacts

@Suite("vCard lines: parsing, folding, rewriting the photo only")
struct VCardTests {
    private let jpeg = TestImages.make(width: 64, height: 48, format: "jpeg")

    @Test("splitting into logical lines covers every byte, and unfolding joins continuations")
    func splitCoversEveryByte() throws {
        let bytes = Array(Cards.richV3.utf8)
        let lines = ContentLines.split(bytes)
        #expect(lines.flatMap { bytes[$0.range] } == bytes)
        let note = try #require(lines.first { $0.unfolded.starts(with: Array("NOTE:".utf8)) })
        let text = String(decoding: note.unfolded, as: UTF8.self)
        #expect(text.contains("seventy-five octets\\, with an escaped comma and a tab-folded continuation."))
        #expect(note.lineBreak == [0x0D, 0x0A])
    }

    @Test("folding keeps lines within 75 octets, never splits a UTF-8 sequence, and unfolds back")
    func foldingRoundTrips() throws {
        let line = "NOTE:" + String(repeating: "Zoë Ångström 🧗 ", count: 40)
        let folded = ContentLines.fold(line, lineBreak: [0x0D, 0x0A])
        let physical = String(decoding: folded, as: UTF8.self).components(separatedBy: "\r\n").dropLast()
        #expect(physical.count > 5)
        for (index, part) in physical.enumerated() {
            #expect(part.utf8.count <= 75, "line \(index) has \(part.utf8.count) octets")
            #expect(index == 0 || part.hasPrefix(" "))
        }
        // Each physical line is valid UTF-8 by itself: no sequence was split.
        let rawLines = folded.split(separator: 0x0A)
        for raw in rawLines { #expect(String(validating: raw, as: UTF8.self) != nil) }
        let unfolded = try #require(ContentLines.split(folded).first)
        #expect(String(decoding: unfolded.unfolded, as: UTF8.self) == line)
    }

    @Test("a 3.0 card keeps every other line byte for byte; the folded old PHOTO is replaced")
    func rewriteKeepsOtherLinesV3() throws {
        let original = Array(Cards.richV3.utf8)
        let document = try VCardDocument(bytes: original)
        #expect(document.version == .v3)
        let rewritten = document.replacingPhoto(withJPEG: jpeg)

        let before = original.logicalLines
        let after = rewritten.logicalLines
        #expect(before.filter { !$0.isPhotoLine } == after.filter { !$0.isPhotoLine })
        // The photo takes the old one's place.
        #expect(before.firstIndex(where: \.isPhotoLine) == after.firstIndex(where: \.isPhotoLine))
        let photos = after.filter(\.isPhotoLine)
        #expect(photos.count == 1)
        let photo = try #require(photos.first)
        let text = String(decoding: photo, as: UTF8.self)
        #expect(text.hasPrefix("PHOTO;ENCODING=b;TYPE=JPEG:"))
        for part in text.components(separatedBy: "\r\n").dropLast() { #expect(part.utf8.count <= 75) }
        #expect(text.hasSuffix("\r\n"))
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))

        let reread = try VCardDocument(bytes: rewritten)
        let contact = Contact(fileURL: URL(fileURLWithPath: "/x.vcf"), document: reread)
        #expect(contact.photo == .embedded(jpeg, type: "JPEG"))
        #expect(contact.formattedName == "Zoë Ångström")
    }

    @Test("a 4.0 card gets a data: URI photo before END, with its own LF line breaks")
    func rewriteV4() throws {
        let original = Array(Cards.plainV4.utf8)
        let document = try VCardDocument(bytes: original)
        #expect(document.version == .v4)
        let rewritten = document.replacingPhoto(withJPEG: jpeg)
        let after = rewritten.logicalLines
        #expect(original.logicalLines == after.filter { !$0.isPhotoLine })
        let photoLine = try #require(after.first { $0.isPhotoLine })
        let photo = String(decoding: photoLine, as: UTF8.self)
        #expect(photo.hasPrefix("PHOTO:data:image/jpeg;base64,"))
        #expect(!photo.contains("\r"))
        #expect(String(decoding: after[after.count - 1], as: UTF8.self) == "END:VCARD\n")
        #expect(String(decoding: after[after.count - 2], as: UTF8.self) == photo)
        let contact = Contact(fileURL: URL(fileURLWithPath: "/x.vcf"), document: try VCardDocument(bytes: rewritten))
        #expect(contact.photo == .embedded(jpeg, type: "image/jpeg"))
    }

    @Test("setting a photo twice leaves one PHOTO, and the rest still identical")
    func rewriteTwice() throws {
        let original = Array(Cards.richV3.utf8)
        let once = try VCardDocument(bytes: original).replacingPhoto(withJPEG: jpeg)
        let other = TestImages.make(width: 20, height: 30, format: "jpeg")
        let twice = try VCardDocument(bytes: once).replacingPhoto(withJPEG: other)
        #expect(twice.logicalLines.filter(\.isPhotoLine).count == 1)
        #expect(original.logicalLines.filter { !$0.isPhotoLine } == twice.logicalLines.filter { !$0.isPhotoLine })
    }

    @Test("malformed cards are refused with a reason", arguments: Cards.malformed)
    func malformed(_ card: (name: String, text: String, reason: String)) {
        #expect {
            try VCardDocument(bytes: Array(card.text.utf8))
        } throws: { error in
            (error as? VCardSyntaxError)?.description.contains(card.reason) == true
        }
    }

    @Test("a card that is not UTF-8 is refused")
    func notUTF8() {
        #expect(throws: VCardSyntaxError.self) { try VCardDocument(bytes: Cards.latin1) }
    }

    @Test("new cards have UID, FN, N and VERSION, escaped and folded")
    func newCard() throws {
        for version in VCardVersion.allCases {
            let bytes = VCardDocument.newCard(
                version: version, uid: "u-1", formattedName: "Lima, Ana; the 2nd",
                nameComponents: ["Lima", "Ana", "", "", ""], email: "ana@example.com", photo: jpeg)
            let contact = Contact(fileURL: URL(fileURLWithPath: "/u-1.vcf"), document: try VCardDocument(bytes: bytes))
            #expect(contact.version == version)
            #expect(contact.uid == "u-1")
            #expect(contact.formattedName == "Lima, Ana; the 2nd")
            #expect(contact.nameComponents == ["Lima", "Ana", "", "", ""])
            #expect(contact.emailAddresses == ["ana@example.com"])
            #expect(contact.photo?.data == jpeg)
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.contains("FN:Lima\\, Ana\\; the 2nd\r\n"))
            for line in text.components(separatedBy: "\r\n") { #expect(line.utf8.count <= 75) }
        }
    }

    @Test("names, addresses, UIDs and partial names find contacts; ambiguity and absence are told apart")
    func matching() throws {
        func contact(_ uid: String, _ name: String, _ email: String?) throws -> Contact {
            let document = try VCardDocument(bytes: Array(Cards.simple(uid: uid, name: name, email: email).utf8))
            return Contact(fileURL: URL(fileURLWithPath: "/book/\(uid).vcf"), document: document)
        }
        let ana = try contact("a1", "Ana Lima", "ana@example.com")
        let anabel = try contact("a2", "Anabel Souza", "anabel@example.com")
        let bo = try contact("b1", "Bo Chen", nil)
        let all = [ana, anabel, bo]
        #expect(ContactBook.match("ANA@example.com", in: all) == .one(ana))
        #expect(ContactBook.match("ana lima", in: all) == .one(ana))
        #expect(ContactBook.match("Someone <anabel@example.com>", in: all) == .one(anabel))
        #expect(ContactBook.match("b1", in: all) == .one(bo))
        #expect(ContactBook.match("b1.vcf", in: all) == .one(bo))
        #expect(ContactBook.match("Bo", in: all) == .one(bo))
        #expect(ContactBook.match("souza", in: all) == .one(anabel))
        #expect(ContactBook.match("Ana", in: all) == .several([ana, anabel]))
        #expect(ContactBook.match("Chen Bo", in: all) == .one(bo))
        #expect(ContactBook.match("Cy Twombly", in: all) == .none(name: "Cy Twombly", email: nil))
        #expect(ContactBook.match("cy@example.com", in: all) == .none(name: "cy@example.com", email: "cy@example.com"))
        #expect(ContactBook.match("Cy T <cy@example.com>", in: all) == .none(name: "Cy T", email: "cy@example.com"))
        #expect(throws: ShareError.self) { try ContactBook.target(for: "Ana", in: all) }
        #expect(try ContactBook.target(for: "Cy Twombly", in: all) == .new(name: "Cy Twombly", email: nil))
        // Two addresses (`--to a,b`) or a mistyped one make no contact called "a@x,b@y".
        #expect(throws: ShareError.self) { try ContactBook.target(for: "cy@example.com,dee@example.net", in: all) }
        #expect(throws: ShareError.self) { try ContactBook.target(for: "cy@@example", in: all) }
        #expect(ContactBook.nameComponents(of: "Cy van Twombly", email: nil) == ["Twombly", "Cy van", "", "", ""])
    }
}
