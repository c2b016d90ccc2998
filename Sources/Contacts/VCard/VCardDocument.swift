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
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { throw VCardSyntaxError("it starts with a byte-order mark") }
        let lines = ContentLines.split(bytes)
        self.lines = lines
        var properties: [Property?] = []
        properties.reserveCapacity(lines.count)
        var firstProblem: VCardSyntaxError?
        var lineNumber = 1
        for line in lines {
            defer { lineNumber += bytes[line.range].reduce(0) { $0 + ($1 == ContentLines.lineFeed ? 1 : 0) } }
            if line.isBlank {
                properties.append(nil)
                continue
            }
            do throws(VCardSyntaxError) {
                guard let text = String(validating: line.unfolded, as: UTF8.self) else {
                    throw VCardSyntaxError("not UTF-8 text")
                }
                properties.append(try Property(line: text))
            } catch {
                if firstProblem == nil { firstProblem = VCardSyntaxError("line \(lineNumber): \(error.description)") }
                // A stand-in, so that the structure can be checked (and reported) first.
                properties.append(Property(unparsed: line.unfolded))
            }
        }
        self.properties = properties

        let contentIndices = properties.indices.filter { properties[$0] != nil }
        guard let first = contentIndices.first, let last = contentIndices.last else {
            throw VCardSyntaxError("it is empty")
        }
        func isMarker(_ index: Int, _ marker: String) -> Bool {
            guard let property = properties[index] else { return false }
            return property.name == marker && property.group == nil
                && property.value.trimmingCharacters(in: .whitespaces).uppercased() == "VCARD"
        }
        guard isMarker(first, "BEGIN") else { throw VCardSyntaxError("it does not start with BEGIN:VCARD") }
        guard first != last, isMarker(last, "END") else { throw VCardSyntaxError("it does not end with END:VCARD") }
        if let firstProblem { throw firstProblem }
        for index in contentIndices.dropFirst().dropLast() {
            let name = properties[index]!.name
            if name == "BEGIN" || name == "END" {
                throw VCardSyntaxError("it holds more than one card, or a card inside a card (\(name) on line \(index + 1))")
            }
        }
        let versions = contentIndices.compactMap { properties[$0] }.filter { $0.name == "VERSION" }
        guard let declared = versions.first else { throw VCardSyntaxError("it has no VERSION") }
        guard versions.count == 1 else { throw VCardSyntaxError("it has more than one VERSION") }
        let number = declared.value.trimmingCharacters(in: .whitespaces)
        guard let version = VCardVersion(rawValue: number) else {
            throw VCardSyntaxError("vCard version \(number) is not supported (only 3.0 and 4.0)")
        }
        self.version = version
        let breaks = lines.map(\.lineBreak).filter { !$0.isEmpty }
        lineBreak = breaks.first ?? [ContentLines.carriageReturn, ContentLines.lineFeed]
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
