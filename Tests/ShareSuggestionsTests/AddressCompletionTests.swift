import Foundation
import ShareSheet
import Testing

@testable import ShareSuggestions

/// An address field's completion from the contacts (the window's To): a word of the name or the
/// start of an address, letter case and accents aside; names before addresses; the field's text
/// a mailbox with the name, or the bare address when the name could not stand bare.
@Suite("Completing addresses from the contacts")
struct AddressCompletionTests {
    let directory = ContactDirectory(entries: [
        .init(name: "Bo Berg", addresses: ["bo@example.com", "bo.berg@work.example"], numbers: [], photoPath: "/tmp/bo.jpg"),
        .init(name: "Ana Lima", addresses: ["ana@example.com"], numbers: ["+46 70 123 45 67"], photoPath: nil),
        .init(name: "Élodie Berger", addresses: ["elodie@example.fr"], numbers: [], photoPath: nil),
        .init(name: "Lima, Carlos", addresses: ["carlos@example.com"], numbers: [], photoPath: nil),
        .init(name: "Noah Stone", addresses: ["berlin-office@example.com"], numbers: [], photoPath: nil),
    ])

    @Test("a word of the name matches, any letter case and accents aside; each address of a match is offered")
    func wordsOfTheName() {
        let found = directory.people(matching: "BER", kind: .email, limit: 10)
        #expect(found.map(\.address) == ["bo@example.com", "bo.berg@work.example", "elodie@example.fr", "berlin-office@example.com"])
        #expect(found.first?.fieldText == "Bo Berg <bo@example.com>")
        #expect(found.first?.photoPath == "/tmp/bo.jpg")
        #expect(directory.people(matching: "elo", kind: .email, limit: 10).map(\.name) == ["Élodie Berger"])
    }

    @Test("a name that cannot stand bare in a list of addresses gives the bare address")
    func commaInTheName() {
        let found = directory.people(matching: "carlos", kind: .email, limit: 10)
        #expect(found.map(\.fieldText) == ["carlos@example.com"])
    }

    @Test("phone numbers complete by name or by digits, spacing aside; people without that kind of address are left out")
    func phoneNumbers() {
        #expect(directory.people(matching: "ana", kind: .phone, limit: 10).map(\.fieldText) == ["+46 70 123 45 67"])
        #expect(directory.people(matching: "4670", kind: .phone, limit: 10).map(\.name) == ["Ana Lima"])
        #expect(directory.people(matching: "bo", kind: .phone, limit: 10).isEmpty)
    }

    @Test("the limit keeps the best; nothing matches a word in the middle of a name")
    func limitAndMiddles() {
        #expect(directory.people(matching: "b", kind: .email, limit: 2).map(\.address) == ["bo@example.com", "bo.berg@work.example"])
        #expect(directory.people(matching: "erg", kind: .email, limit: 10).isEmpty)
    }
}
