import Contacts
import Foundation
import ShareSheetSystem

/// The contacts of the vCard folder as suggestions need them: a name and a photo for an
/// address or number, and every contact that has one, by name.
struct ContactDirectory {
    /// One contact.
    struct Entry: Sendable, Equatable {
        /// What people see.
        var name: String
        /// Its e-mail addresses.
        var addresses: [String]
        /// Its telephone numbers.
        var numbers: [String]
        /// A file holding its photo, when it has one.
        var photoPath: String?
    }

    /// Every contact with an address or a number, by name.
    private(set) var all: [Entry] = []
    private var byAddress: [String: Int] = [:]

    /// No contacts.
    init() {}

    /// The contacts `entries` lists.
    init(entries: [Entry]) {
        all = entries.filter { !$0.addresses.isEmpty || !$0.numbers.isEmpty }
        for (index, entry) in all.enumerated() {
            for key in entry.addresses.map(Self.addressKey) + entry.numbers.map(Self.numberKey) where byAddress[key] == nil {
                byAddress[key] = index
            }
        }
    }

    /// The contacts of the folder `[contacts]` configures; none when it cannot be read (the
    /// sheet is never held up by a contacts folder: Assign to Contact says what is wrong).
    static func load(configuration: Configuration, directories: XDGDirectories) -> ContactDirectory {
        guard let book = try? ContactBook.configured(configuration, directories: directories),
            let listing = try? book.load()
        else { return ContactDirectory() }
        return ContactDirectory(
            entries: listing.contacts.map { contact in
                Entry(
                    name: contact.displayName, addresses: contact.emailAddresses, numbers: contact.phoneNumbers,
                    photoPath: nil)
            })
    }

    /// The contact with `address` (an e-mail address, letter case aside, or a number, spacing aside).
    func contact(for address: String) -> Entry? {
        let key = address.contains("@") ? Self.addressKey(address) : Self.numberKey(address)
        return byAddress[key].map { all[$0] }
    }

    private static func addressKey(_ address: String) -> String { "mail:" + address.lowercased() }
    private static func numberKey(_ number: String) -> String { "tel:" + number.filter { $0.isNumber || $0 == "+" } }
}
