import Foundation
import LocalTestSupport
import ShareSheet
import Testing

@testable import Contacts

/// The activity inside a sheet, filled by the scripted presenter as `share --activity` fills it.
@MainActor
@Suite("Assign to Contact in a sheet")
struct ActivityTests {
    private func sheet(
        _ items: [Any], book: ContactBook, preset: InterfaceValues, values: InterfaceValues = [:],
        warnings: Locked<[String]> = Locked([])
    ) async -> (ShareOutcome, ScriptedPresenter) {
        let registry = ActivityRegistry()
        registry.install(.assignToContact) {
            let activity = AssignToContactActivity(book: book)
            activity.warningHandler = { warning in warnings.withLock { $0.append(warning) } }
            return activity
        }
        let controller = ActivityViewController(activityItems: items, applicationActivities: nil, registry: registry)
        controller.presetValues = preset
        let presenter = ScriptedPresenter(pick: .assignToContact, values: values)
        controller.present(with: presenter)
        return (await controller.waitForCompletion(), presenter)
    }

    @Test("--to fills the contact field; the card's file is returned; only images are offered")
    func toFillsContact() async throws {
        let folder = try TemporaryFolder("contacts-tests")
        defer { folder.remove() }
        try Data(Cards.richV3.utf8).write(to: folder.file("rich-3.vcf"))
        let image = folder.file("face.jpg")
        try TestImages.make(width: 900, height: 900, format: "jpeg").write(to: image)
        let warnings = Locked<[String]>([])
        try Data(Cards.malformed[1].text.utf8).write(to: folder.file("bad.vcf"))

        let (outcome, presenter) = await sheet(
            [image, "a caption that is left out"], book: ContactBook(folder: folder.url),
            preset: ["to": .text("zoe@example.org")], warnings: warnings)
        #expect(outcome.error == nil, "\(String(describing: outcome.error))")
        #expect(outcome.completed)
        #expect(outcome.returnedItems?.first as? URL == folder.file("rich-3.vcf"))
        #expect(outcome.disposition == .saved)
        #expect(outcome.location == folder.file("rich-3.vcf").path)
        let field = try #require(presenter.shownInterface?.fields.first)
        #expect(field.id == "contact")
        #expect(field.defaultValue == .text("zoe@example.org"))
        #expect(warnings.withLock { $0 } == ["\(folder.file("bad.vcf").path): skipped, it has no VERSION"])
        let contact = try ContactBook(folder: folder.url).read(folder.file("rich-3.vcf")).contact
        #expect(contact.photo?.data.flatMap(TestImages.jpegSize).map { [$0.width, $0.height] } == [720, 720])
    }

    @Test("an Image item works as well as a file, and --set contact wins over --to")
    func imageItem() async throws {
        let folder = try TemporaryFolder("contacts-tests")
        defer { folder.remove() }
        let image = try #require(Image(data: TestImages.make(width: 30, height: 20)))
        let (outcome, _) = await sheet(
            [image], book: ContactBook(folder: folder.url, newCardVersion: .v4),
            preset: ["to": .text("someone@example.com")], values: ["contact": .text("Dee Dee")])
        #expect(outcome.completed, "\(String(describing: outcome.error))")
        let url = try #require(outcome.returnedItems?.first as? URL)
        let contact = try ContactBook(folder: folder.url).read(url).contact
        #expect(contact.formattedName == "Dee Dee")
        #expect(contact.version == .v4)
        #expect(contact.emailAddresses.isEmpty)
    }

    @Test("an ambiguous name ends the scripted sheet with a usage error listing the matches")
    func ambiguous() async throws {
        let folder = try TemporaryFolder("contacts-tests")
        defer { folder.remove() }
        for (uid, name) in [("a1", "Ana Lima"), ("a2", "Ana Souza")] {
            try Data(Cards.simple(uid: uid, name: name, email: nil).utf8).write(to: folder.file("\(uid).vcf"))
        }
        let image = folder.file("face.png")
        try TestImages.make(width: 10, height: 10).write(to: image)
        let (outcome, _) = await sheet([image], book: ContactBook(folder: folder.url), preset: ["contact": .text("ana")])
        let error = try #require(outcome.error as? ShareError)
        #expect(error.kind == .usage)
        #expect(error.message.contains("“ana” matches 2 contacts"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["a1.vcf", "a2.vcf", "face.png"])
    }
}
