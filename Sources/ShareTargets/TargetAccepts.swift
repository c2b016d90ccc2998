import Foundation
import ShareSheet
import UniformTypes

/// What a share target takes: `X-ShareSheet-Accepts=`, UTType identifiers or MIME types
/// separated by `;`, each with an optional count limit (`public.image[1-10]`, `text/plain[1]`,
/// `image/*[2-]`).
public struct TargetAccepts: Sendable, Equatable {
    /// One entry of the list.
    public struct Rule: Sendable, Equatable {
        /// As written in the entry: `public.image`, `image/png`, `image/*`.
        public var pattern: String
        /// How many items of this type the target takes at least, when limited.
        public var minimum: Int
        /// How many at most; nil for no upper limit.
        public var maximum: Int?
        let match: TypeMatch

        /// "images (public.image, 1 to 10)".
        public var summary: String {
            let limit: String
            switch (minimum, maximum) {
            case (1, nil): limit = ""
            case (let low, nil): limit = ", \(low) or more"
            case (let low, let high?) where low == high: limit = ", exactly \(low)"
            case (1, let high?): limit = ", at most \(high)"
            case (let low, let high?): limit = ", \(low) to \(high)"
            }
            return "\(match.noun) (\(pattern)\(limit))"
        }

        /// True when `count` items of this type are within the limit.
        func allows(_ count: Int) -> Bool { count >= minimum && count <= (maximum ?? .max) }
    }

    /// The rules, in the entry's order.
    public var rules: [Rule]

    /// Reads the key's value.
    /// - Throws: `TargetEntryProblem` naming the first entry that is not a type, a MIME type or
    ///   a count limit.
    public init(parsing value: String) throws {
        rules = []
        for part in value.split(separator: ";").map({ $0.trimmingCharacters(in: .whitespaces) }) where !part.isEmpty {
            rules.append(try Self.rule(part))
        }
        if rules.isEmpty { throw TargetEntryProblem("X-ShareSheet-Accepts lists no type") }
    }

    /// "images (public.image, 1 to 10), plain text (text/plain)".
    public var summary: String { rules.map(\.summary).joined(separator: ", ") }

    /// True when an item of `kind` fits one of the rules.
    public func accepts(_ kind: ItemKind) -> Bool { rules.contains { $0.match.accepts(kind) } }

    private static func rule(_ text: String) throws -> Rule {
        var pattern = Substring(text)
        var minimum = 1
        var maximum: Int?
        if let open = text.firstIndex(of: "[") {
            guard text.hasSuffix("]") else { throw TargetEntryProblem("\(text): a count limit ends with ]") }
            pattern = text[..<open]
            let limit = text[text.index(after: open)..<text.index(before: text.endIndex)]
            let bounds = limit.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            guard let low = Int(bounds[0]), low >= 0 else {
                throw TargetEntryProblem("\(text): the count limit is not [N], [N-M] or [N-]")
            }
            minimum = max(low, 1)
            if bounds.count == 1 {
                maximum = low
            } else if !bounds[1].isEmpty {
                guard let high = Int(bounds[1]), high >= max(low, 1) else {
                    throw TargetEntryProblem("\(text): the count limit is not [N], [N-M] or [N-]")
                }
                maximum = high
            }
            if maximum == 0 { throw TargetEntryProblem("\(text): a count limit of 0 takes nothing") }
        }
        let name = String(pattern).trimmingCharacters(in: .whitespaces)
        guard let match = TypeMatch(name) else {
            throw TargetEntryProblem("\(name): not a uniform type identifier or MIME type this system knows")
        }
        return Rule(pattern: name, minimum: minimum, maximum: maximum, match: match)
    }
}

/// One pattern of `X-ShareSheet-Accepts`, against the sheet's item kinds.
struct TypeMatch: Sendable, Equatable {
    /// The type items must conform to; nil for a media-type wildcard (`image/*`).
    let type: UTType?
    /// The media type of a wildcard (`image`).
    let mediaType: String?

    init?(_ pattern: String) {
        if pattern.hasSuffix("/*") {
            let media = String(pattern.dropLast(2))
            guard !media.isEmpty, !media.contains("/") else { return nil }
            type = nil
            mediaType = media.lowercased()
        } else if pattern.contains("/") {
            guard let type = UTType(mimeType: pattern.lowercased()) else { return nil }
            self.type = type
            mediaType = nil
        } else {
            guard pattern.contains("."), let type = UTType(pattern) else { return nil }
            self.type = type
            mediaType = nil
        }
    }

    /// What people call the items: "images", "plain text", "files of type application/pdf".
    var noun: String {
        if let mediaType { return mediaType == "application" ? "files" : mediaType + " files" }
        guard let type else { return "items" }
        for (general, noun) in Self.nouns where type == general { return noun }
        return type.localizedDescription.map { "\($0) items" } ?? "\(type.identifier) items"
    }

    private static let nouns: [(UTType, String)] = [
        (.image, "images"), (.movie, "videos"), (.audio, "audio"), (.text, "text"), (.plainText, "plain text"),
        (.url, "links"), (.fileURL, "files"), (.item, "items"), (.data, "files and data"), (.content, "items"),
        (.pdf, "PDF documents"),
    ]

    /// True when an item of `kind` fits.
    func accepts(_ kind: ItemKind) -> Bool {
        guard let itemType = Self.type(of: kind) else { return false }
        if let mediaType {
            // The type's own MIME type, not its aliases: shared-mime-info lists image/pdf as an
            // alias of application/pdf, and a PDF is no image.
            let mime = itemType.preferredMIMEType ?? itemType.tags[.mimeType]?.first
            return mime?.hasPrefix(mediaType + "/") ?? false
        }
        guard let type else { return false }
        if itemType.conforms(to: type) { return true }
        // Every file the sheet holds is also a file (`public.file-url`), whatever its content.
        if case .fileURL = kind, type == .fileURL { return true }
        return false
    }

    /// The type an item of `kind` is sent as: text as plain text, a link as a URL, a file, data,
    /// image or asset as its own type; nil for what a target cannot receive (colors, printing).
    static func type(of kind: ItemKind) -> UTType? {
        switch kind {
        case .string, .attributedString: return .plainText
        case .webURL, .schemeURL: return .url
        case .fileURL(let type), .data(let type, _), .image(let type), .asset(let type): return type
        default: return nil
        }
    }
}

/// What is wrong with a share target's desktop entry, in one line.
public struct TargetEntryProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The line.
    public var message: String
    /// Describes a problem.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
