import Contacts
import Foundation
import ShareSheet
import ShareSheetSystem

/// The contacts of the vCard folder as suggestions need them: a name and a photo for an
/// address or number, and every contact that has one, by name.
struct ContactDirectory: Sendable {
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
    /// The folder these contacts were read from and the process's reading of it
    /// (`ContactIndex.isCurrent`); nil for contacts made otherwise.
    var origin: (folder: String, generation: Int)?

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
    /// sheet is never held up by a contacts folder: Assign to Contact says what is wrong). Read
    /// through `ContactIndex`: every card only when the folder changed.
    static func load(configuration: Configuration, directories: XDGDirectories) -> ContactDirectory {
        guard let folder = folder(configuration: configuration, directories: directories) else { return ContactDirectory() }
        return ContactIndex.directory(folder: folder, directories: directories)
    }

    /// The folder `ContactBook.configured` names, worked out once per setting and home.
    static func folder(configuration: Configuration, directories: XDGDirectories) -> URL? {
        let key = [configuration.string("folder", in: "contacts") ?? "", directories.home.path, directories.dataHome.path]
            .joined(separator: "\u{0}")
        if let known = folders.withLock({ $0[key] }) { return known }
        guard let book = try? ContactBook.configured(configuration, directories: directories) else { return nil }
        folders.withLock { $0[key] = book.folder }
        return book.folder
    }

    private static let folders = Locked<[String: URL]>([:])

    /// The contact with `address` (an e-mail address, letter case aside, or a number, spacing aside).
    func contact(for address: String) -> Entry? {
        let key = address.utf8.contains(UInt8(ascii: "@")) ? Self.addressKey(address) : Self.numberKey(address)
        return byAddress[key].map { all[$0] }
    }

    /// "mail:" and the address without letter case. Addresses are nearly always ASCII, which
    /// is lowered byte by byte (`lowercased()` costs a dictionary of 2,000 contacts a millisecond).
    private static func addressKey(_ address: String) -> String {
        guard address.utf8.allSatisfy({ $0 < 0x80 }) else { return "mail:" + address.lowercased() }
        return "mail:" + String(decoding: address.utf8.map { (65...90).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// "tel:" and the number's digits and plus signs (ASCII digits byte by byte, others as characters).
    private static func numberKey(_ number: String) -> String {
        guard number.utf8.allSatisfy({ $0 < 0x80 }) else { return "tel:" + number.filter { $0.isNumber || $0 == "+" } }
        return "tel:" + String(decoding: number.utf8.filter { (48...57).contains($0) || $0 == UInt8(ascii: "+") }, as: UTF8.self)
    }
}
