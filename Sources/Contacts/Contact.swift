import Foundation

/// A contact: one vCard file of a contacts folder, with what the sheet shows and matches on.
public struct Contact: Sendable, Hashable, CustomStringConvertible {
    /// The card's file.
    public let fileURL: URL
    /// The card's UID, when it has one.
    public let uid: String?
    /// The formatted name (FN); empty when the card has none.
    public let formattedName: String
    /// The structured name (N): family, given, additional, prefixes, suffixes.
    public let nameComponents: [String]
    /// The e-mail addresses (EMAIL), in the card's order.
    public let emailAddresses: [String]
    /// The telephone numbers (TEL), in the card's order: what Message sends to.
    public let phoneNumbers: [String]
    /// The vCard version of the card.
    public let version: VCardVersion
    /// The card's photo, when it has one.
    public let photo: ContactPhoto?

    /// What people see: the formatted name, else the structured name, else the first address,
    /// else the file name.
    public var displayName: String {
        if !formattedName.isEmpty { return formattedName }
        let given = nameComponents.count > 1 ? nameComponents[1] : ""
        let family = nameComponents.first ?? ""
        let joined = [given, family].filter { !$0.isEmpty }.joined(separator: " ")
        if !joined.isEmpty { return joined }
        return emailAddresses.first ?? fileURL.deletingPathExtension().lastPathComponent
    }

    /// "Ana Lima <ana@example.com>", or the display name alone.
    public var description: String {
        guard let email = emailAddresses.first, email != displayName else { return displayName }
        return "\(displayName) <\(email)>"
    }

    init(fileURL: URL, document: VCardDocument) {
        self.init(fileURL: fileURL, version: document.version, properties: document.allProperties)
    }

    /// A contact from its card's properties: all of them, or at least the ones `reads` keeps.
    init(fileURL: URL, version: VCardVersion, properties: [Property]) {
        self.fileURL = fileURL
        self.version = version
        uid = properties.first { $0.name == "UID" }.map { VCardText.unescaped($0.value).trimmingCharacters(in: .whitespaces) }
        formattedName = properties.first { $0.name == "FN" }.map { VCardText.unescaped($0.value) } ?? ""
        nameComponents = properties.first { $0.name == "N" }.map { VCardText.components($0.value) } ?? []
        emailAddresses = properties.filter { $0.name == "EMAIL" }
            .map { VCardText.unescaped($0.value).trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        phoneNumbers = properties.filter { $0.name == "TEL" }
            .map { Self.phoneNumber(VCardText.unescaped($0.value)) }
            .filter { !$0.isEmpty }
        photo = properties.first { $0.name == "PHOTO" }.map(ContactPhoto.init(property:))
    }

    /// A TEL value as a number to send to: a vCard 4 `tel:` URI loses its scheme and parameters.
    static func phoneNumber(_ value: String) -> String {
        var number = value.trimmingCharacters(in: .whitespaces)
        if number.lowercased().hasPrefix("tel:") { number = String(number.dropFirst(4)) }
        if let parameters = number.firstIndex(of: ";") { number = String(number[..<parameters]) }
        return number.trimmingCharacters(in: .whitespaces)
    }

    /// Whether a contact needs `property`, the `known` ones kept before it: the first UID, FN,
    /// N and PHOTO, and every EMAIL and TEL.
    static func reads(_ property: Property, after known: [Property]) -> Bool {
        switch property.name {
        case "EMAIL", "TEL": return true
        case "UID", "FN", "N", "PHOTO": return !known.contains { $0.name == property.name }
        default: return false
        }
    }
}

/// A contact's photo as its card holds it.
public enum ContactPhoto: Sendable, Hashable {
    /// Embedded in the card: the bytes and the type the card declares (`image/jpeg`, `JPEG`).
    case embedded(Data, type: String)
    /// A link to the photo (`http:` and the like).
    case link(String)
    /// A PHOTO property whose value could not be decoded.
    case unreadable(String)

    init(property: Property) {
        let value = property.value.trimmingCharacters(in: .whitespaces)
        let encoding = property.parameter("ENCODING").map { $0.lowercased() }
        if encoding.contains("b") || encoding.contains("base64") {
            // vCard 3.0 (and 2.1): base64 in the value, type in TYPE.
            let type = property.parameter("TYPE").first ?? ""
            self = Self.decoded(value, type: type, whole: value)
        } else if value.lowercased().hasPrefix("data:") {
            // vCard 4.0: an RFC 2397 data URI.
            let body = value.dropFirst("data:".count)
            guard let comma = body.firstIndex(of: ",") else { self = .unreadable(value); return }
            let header = body[..<comma].split(separator: ";").map(String.init)
            let payload = String(body[body.index(after: comma)...])
            guard header.contains(where: { $0.lowercased() == "base64" }) else {
                self = .embedded(Data((payload.removingPercentEncoding ?? payload).utf8), type: header.first ?? "")
                return
            }
            self = Self.decoded(payload, type: header.first ?? "", whole: value)
        } else {
            self = .link(value)
        }
    }

    private static func decoded(_ base64: String, type: String, whole: String) -> ContactPhoto {
        let compact = base64.filter { !$0.isWhitespace }
        guard let data = Data(base64Encoded: compact, options: .ignoreUnknownCharacters) else { return .unreadable(whole) }
        return .embedded(data, type: type)
    }

    /// The embedded bytes, when the photo is in the card.
    public var data: Data? {
        if case .embedded(let data, _) = self { return data }
        return nil
    }
}
