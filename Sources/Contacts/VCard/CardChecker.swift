import Foundation

/// The rules a `.vcf` file must follow to be read as one card, checked a logical line at a time
/// so that a file never has to be held whole: exactly one vCard 3.0 or 4.0, in UTF-8, without a
/// byte-order mark. It keeps only what the verdict needs, whatever the size of the file.
struct CardChecker {
    /// Whether the file starts with a byte-order mark.
    private let startsWithBOM: Bool
    /// How many logical lines came so far.
    private var lineCount = 0
    /// The physical line number of the next logical line.
    private var lineNumber = 1
    /// The first line that could not be parsed, with its number.
    private var firstProblem: VCardSyntaxError?
    /// The first content line: its index, and whether it is BEGIN:VCARD.
    private var firstContent: (index: Int, isBegin: Bool)?
    /// The last content line so far: its index, and whether it is END:VCARD.
    private var lastContent: (index: Int, isEnd: Bool)?
    /// The first two BEGIN or END lines after the first content line: (index, name).
    private var laterMarkers: [(index: Int, name: String)] = []
    /// The value of the first VERSION, and how many there are.
    private var firstVersion: String?
    private var versionCount = 0
    /// The first line break of the file.
    private(set) var lineBreak: [UInt8]?

    /// A checker for a file that starts (or not) with a byte-order mark.
    init(startsWithBOM: Bool) {
        self.startsWithBOM = startsWithBOM
    }

    /// The problem a byte-order mark is, found before any line is read.
    static let byteOrderMarkProblem = VCardSyntaxError("it starts with a byte-order mark")

    /// True once the file is known to hold more than one line that begins or ends a card after
    /// its first line: what follows belongs to no card that will be read.
    var isPastFirstCard: Bool { !laterMarkers.isEmpty }

    /// Parses one logical line and records what the verdict needs.
    /// - Returns: the line's property, nil for a blank line (a stand-in for a line that could not
    ///   be parsed).
    mutating func add(_ line: RawLine) -> Property? {
        let index = lineCount
        let number = lineNumber
        lineCount += 1
        lineNumber += line.lineFeeds
        if lineBreak == nil, !line.lineBreak.isEmpty { lineBreak = line.lineBreak }
        if line.isBlank { return nil }

        let property: Property
        do throws(VCardSyntaxError) {
            guard let text = String(validating: line.unfolded, as: UTF8.self) else {
                throw VCardSyntaxError("not UTF-8 text")
            }
            property = try Property(line: text)
        } catch {
            if firstProblem == nil { firstProblem = VCardSyntaxError("line \(number): \(error.description)") }
            // A stand-in, so that the structure can be checked (and reported) first.
            property = Property(unparsed: line.unfolded)
        }

        if firstContent == nil {
            firstContent = (index, Self.isMarker(property, "BEGIN"))
        } else if laterMarkers.count < 2, property.name == "BEGIN" || property.name == "END" {
            laterMarkers.append((index, property.name))
        }
        lastContent = (index, Self.isMarker(property, "END"))
        if property.name == "VERSION" {
            if firstVersion == nil { firstVersion = property.value }
            versionCount += 1
        }
        return property
    }

    /// The verdict, once every line was added.
    /// - Returns: the version the card declares.
    /// - Throws: `VCardSyntaxError` saying what is wrong, when the lines are not exactly one
    ///   vCard 3.0 or 4.0.
    func finish() throws(VCardSyntaxError) -> VCardVersion {
        if startsWithBOM { throw Self.byteOrderMarkProblem }
        guard let firstContent, let lastContent else { throw VCardSyntaxError("it is empty") }
        guard firstContent.isBegin else { throw VCardSyntaxError("it does not start with BEGIN:VCARD") }
        guard firstContent.index != lastContent.index, lastContent.isEnd else {
            throw VCardSyntaxError("it does not end with END:VCARD")
        }
        if let firstProblem { throw firstProblem }
        // A BEGIN or END between the first line and the last (the first later one, unless it is
        // the last line itself: then there is none between).
        if let inner = laterMarkers.first, inner.index != lastContent.index {
            throw VCardSyntaxError("it holds more than one card, or a card inside a card (\(inner.name) on line \(inner.index + 1))")
        }
        guard let declared = firstVersion else { throw VCardSyntaxError("it has no VERSION") }
        guard versionCount == 1 else { throw VCardSyntaxError("it has more than one VERSION") }
        let number = declared.trimmingCharacters(in: .whitespaces)
        guard let version = VCardVersion(rawValue: number) else {
            throw VCardSyntaxError("vCard version \(number) is not supported (only 3.0 and 4.0)")
        }
        return version
    }

    /// True for `BEGIN:VCARD` or `END:VCARD` (no group, the value's case and spaces aside).
    private static func isMarker(_ property: Property, _ marker: String) -> Bool {
        property.name == marker && property.group == nil
            && property.value.trimmingCharacters(in: .whitespaces).uppercased() == "VCARD"
    }
}
