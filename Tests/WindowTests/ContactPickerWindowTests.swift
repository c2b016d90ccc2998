// Assign to Contact's page in the window (SPEC §7): the contacts of the vCard folder in the
// test's home, with their photos or initials, under a search that narrows them as a person
// types; picking one with the keys writes the picture into that card.
import Foundation
import LocalTestSupport
import Testing

@Suite("Assign to Contact's page in the window", .serialized)
struct ContactPickerWindowTests {
    /// Three contacts, one with a photo, in the default vCard folder; returns the folder.
    private func writeContacts(_ desk: WindowDesk) throws -> URL {
        try desk.writeContacts(["bo-berg", "ana-lima", "cy-park"])
    }

    @Test("every contact is listed with a face; typing narrows the list; Down and Enter give the picked contact the photo")
    func searchNarrowsAndPicks() async throws {
        try await WindowDesk.with { desk in
            let folder = try writeContacts(desk)
            let (_, photo) = try desk.notesAndPhoto()
            let window = try desk.startShare([photo.path])
            try await window.driver.click(name: "Assign to Contact", role: "push button")
            try await window.driver.wait(name: "Search contacts", role: "entry")
            for name in ["Ana Lima", "Bo Berg", "Cy Park"] { try await window.driver.wait(name: name, role: "push button") }
            try await window.driver.wait(name: "Photo of Bo Berg")
            try await window.driver.wait(name: "AL", role: "label")
            try await desk.saveScreenshot("contact-picker.png", of: window)

            // The focus starts in the search, so a person types at once.
            try await window.driver.type("lim")
            try await window.driver.waitGone(name: "Bo Berg", role: "push button")
            try await window.driver.waitGone(name: "Cy Park", role: "push button")
            try await window.driver.wait(name: "Ana Lima", role: "push button")
            try await desk.saveScreenshot("contact-picker-search.png", of: window)
            try await window.driver.key("Down")
            try await window.driver.key("Return")
            let run = try await window.finish()
            #expect(run.status == 0, "share: \(run.standardError)")

            let ana = try String(contentsOf: folder.appendingPathComponent("ana-lima.vcf"), encoding: .utf8)
            #expect(ana.contains("PHOTO"), "Ana's card has the photo: \(ana)")
            let bo = try String(contentsOf: folder.appendingPathComponent("bo-berg.vcf"), encoding: .utf8)
            #expect(bo.contains("PHOTO;ENCODING=b;TYPE=PNG:"), "Bo's card keeps its own photo")
        }
    }

    @Test("a name nobody has offers a new contact by that name; Enter in the search makes it")
    func newContactFromTheSearch() async throws {
        try await WindowDesk.with { desk in
            let folder = try writeContacts(desk)
            let (_, photo) = try desk.notesAndPhoto()
            let window = try desk.startShare([photo.path])
            try await window.driver.click(name: "Assign to Contact", role: "push button")
            try await window.driver.wait(name: "Search contacts", role: "entry")
            try await window.driver.type("Dee Quinn")
            try await window.driver.wait(name: "New Contact “Dee Quinn”", role: "push button")
            try await window.driver.wait(name: "No contact matches “Dee Quinn”.", role: "label")
            try await window.driver.key("Return")
            let run = try await window.finish()
            #expect(run.status == 0, "share: \(run.standardError)")
            let cards = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".vcf") }
            #expect(cards.count == 4, "\(cards)")
            let made = try cards.map { try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }
                .first { $0.contains("Dee Quinn") }
            #expect(made?.contains("PHOTO") == true, "\(String(describing: made))")
        }
    }
}
