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

    /// The contacts with a word of the name, or an address (a number, for `.phone`), that starts
    /// with `typed`, letter case and accents aside: a name's match before an address's, then by
    /// name. One completion per matching address, at most `limit`.
    func people(matching typed: String, kind: AddressKind, limit: Int) -> [AddressCompletion] {
        let options: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive, .anchored]
        let typedDigits = typed.filter(\.isNumber)
        func starts(_ text: some StringProtocol) -> Bool { text.range(of: typed, options: options) != nil }
        var byName: [AddressCompletion] = []
        var byAddress: [AddressCompletion] = []
        for entry in all {
            let addresses = kind == .email ? entry.addresses : entry.numbers
            guard !addresses.isEmpty else { continue }
            let nameMatches = starts(entry.name) || entry.name.split(whereSeparator: \.isWhitespace).contains { starts($0) }
            for address in addresses {
                let addressMatches =
                    kind == .email
                    ? starts(address)
                    : starts(address) || (!typedDigits.isEmpty && address.filter(\.isNumber).hasPrefix(typedDigits))
                guard nameMatches || addressMatches else { continue }
                let completion = AddressCompletion(
                    name: entry.name, address: address, photoPath: entry.photoPath,
                    fieldText: kind == .email ? Self.mailbox(name: entry.name, address: address) : address)
                if nameMatches { byName.append(completion) } else { byAddress.append(completion) }
            }
        }
        let ordered = { (a: AddressCompletion, b: AddressCompletion) in
            a.name.localizedCaseInsensitiveCompare(b.name) == .orderedAscending
        }
        return Array((byName.sorted(by: ordered) + byAddress.sorted(by: ordered)).prefix(limit))
    }

    /// "Bo Berg <bo@example.com>", so the receiver's program shows the name; the bare address
    /// when there is no name or it holds a character a bare display name may not (a comma would
    /// also split the field's list of addresses).
    static func mailbox(name: String, address: String) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        let special = "()<>[]:;@\\,.\""
        guard !trimmed.isEmpty, !trimmed.contains(where: { $0.isNewline || special.contains($0) }) else { return address }
        return "\(trimmed) <\(address)>"
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
