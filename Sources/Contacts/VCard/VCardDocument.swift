import Foundation

/// The vCard versions whose photo syntax this module writes.
public enum VCardVersion: String, Sendable, Hashable, CaseIterable {
    /// vCard 3.0 (RFC 2426): `PHOTO;ENCODING=b;TYPE=JPEG:` and base64.
    case v3 = "3.0"
    /// vCard 4.0 (RFC 6350): `PHOTO:data:image/jpeg;base64,` and base64.
    case v4 = "4.0"
}

/// One `.vcf` file as it is on disk: its bytes, split into logical lines, with the properties
/// this module reads. Rewriting it changes the PHOTO property only; every other byte is copied.
struct VCardDocument: Sendable {
    /// The file's bytes.
    let bytes: [UInt8]
    /// The logical lines, in order, covering every byte.
    let lines: [RawLine]
    /// The parsed property of each content line (nil for blank lines).
    let properties: [Property?]
    /// The version the card declares.
    let version: VCardVersion
    /// The line break the card uses ("\r\n" as the RFCs ask, or "\n").
    let lineBreak: [UInt8]

    /// Parses a file's bytes.
    /// - Throws: `VCardSyntaxError` saying what is wrong, when the bytes are not exactly one
    ///   vCard 3.0 or 4.0.
    init(bytes: [UInt8]) throws(VCardSyntaxError) {
        self.bytes = bytes
        let lines = ContentLines.split(bytes)
        self.lines = lines
        var checker = CardChecker(startsWithBOM: bytes.starts(with: [0xEF, 0xBB, 0xBF]))
        properties = lines.map { checker.add($0) }
        version = try checker.finish()
        lineBreak = checker.lineBreak ?? [ContentLines.carriageReturn, ContentLines.lineFeed]
    }

    /// Every property, in order, without the blank lines.
    var allProperties: [Property] { properties.compactMap { $0 } }

    /// The first property called `name`.
    func first(_ name: String) -> Property? { allProperties.first { $0.name == name } }

    /// The card's bytes with every PHOTO property replaced by one new PHOTO property (in the
    /// card's version syntax, folded at 75 octets, with the card's line break), where the first
    /// one was or else just before END:VCARD. Every other line is copied byte for byte.
    func replacingPhoto(withJPEG jpeg: Data) -> [UInt8] {
        let photo = ContentLines.fold(Self.photoLine(jpeg, version: version), lineBreak: lineBreak)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + photo.count)
        var placed = false
        let endIndex = properties.lastIndex { $0?.name == "END" }!
        for (index, line) in lines.enumerated() {
            if properties[index]?.name == "PHOTO" {
                if !placed {
                    result += photo
                    placed = true
                }
                continue
            }
            if index == endIndex, !placed {
                // The line before END may lack a break only if it is END itself; it never is.
                result += photo
                placed = true
            }
            result += bytes[line.range]
        }
        return result
    }

    /// The PHOTO content line for a JPEG, unfolded.
    static func photoLine(_ jpeg: Data, version: VCardVersion) -> String {
        let encoded = jpeg.base64EncodedString()
        switch version {
        case .v3: return "PHOTO;ENCODING=b;TYPE=JPEG:" + encoded
        case .v4: return "PHOTO:data:image/jpeg;base64," + encoded
        }
    }

    /// The bytes of a new card: BEGIN, VERSION, UID, FN, N, the e-mail address when given, the
    /// photo when given, END; folded, with "\r\n" line breaks.
    static func newCard(
        version: VCardVersion, uid: String, formattedName: String, nameComponents: [String],
        email: String?, photo: Data?
    ) -> [UInt8] {
        var lines = ["BEGIN:VCARD", "VERSION:" + version.rawValue, "UID:" + VCardText.escaped(uid)]
        lines.append("FN:" + VCardText.escaped(formattedName))
        var components = nameComponents.map(VCardText.escaped)
        while components.count < 5 { components.append("") }
        lines.append("N:" + components.joined(separator: ";"))
        if let email {
            lines.append((version == .v3 ? "EMAIL;TYPE=INTERNET:" : "EMAIL:") + VCardText.escaped(email))
        }
        if let photo { lines.append(photoLine(photo, version: version)) }
        lines.append("END:VCARD")
        let lineBreak = [ContentLines.carriageReturn, ContentLines.lineFeed]
        return lines.flatMap { ContentLines.fold($0, lineBreak: lineBreak) }
    }
}
