import Foundation

/// How far a post's text is from the service's limit.
public struct CharacterCount: Sendable, Equatable, CustomStringConvertible {
    /// The characters the text uses, counted the service's way.
    public var used: Int
    /// The service's limit; nil when it has none worth counting against.
    public var limit: Int?

    /// Makes a count.
    public init(used: Int, limit: Int?) {
        self.used = used
        self.limit = limit
    }

    /// What is left (negative when over); nil without a limit.
    public var remaining: Int? { limit.map { $0 - used } }
    /// True when the text is longer than the limit.
    public var isOverLimit: Bool { limit.map { used > $0 } ?? false }

    /// "42/500" or "42".
    public var description: String { limit.map { "\(used)/\($0)" } ?? "\(used)" }
}

/// Counts a post's text the way a service does before it accepts or refuses it.
///
/// - X (twitter-text configuration version 3): the text in NFC; each link 23 (t.co); each emoji
///   (a whole sequence, with modifiers, joiners and flags) 2; other code points 1 in
///   U+0000–U+10FF, U+2000–U+200D, U+2010–U+201F and U+2032–U+2037, and 2 elsewhere (so CJK
///   counts 2). Limit 280.
/// - Mastodon (StatusLengthValidator): grapheme clusters, each link with a scheme 23 whatever its
///   length, a mention `@user@domain` as `@user`. Limit 500 unless the instance says otherwise.
/// - Weibo: half a character for U+0000–U+00FF, one for the rest of the BMP (CJK included), two
///   beyond it, rounded up; a link counts as its t.cn short form, 20 half-width characters. Limit 140.
/// - Facebook: characters (grapheme clusters), links in full. Limit 63,206.
/// - Flickr and Vimeo: the text becomes a title and description, with no limit.
public enum CharacterCounter {
    /// The counting rule of a service.
    public enum Rule: Sendable, Equatable {
        /// twitter-text's weighted count.
        case xWeighted
        /// Grapheme clusters with links at a fixed length and remote mentions shortened.
        case mastodon(urlLength: Int)
        /// Weibo's half/full-width count.
        case weibo
        /// Plain grapheme clusters.
        case graphemes
    }

    /// The count of `text` under `rule`.
    public static func count(_ text: String, rule: Rule) -> Int {
        switch rule {
        case .xWeighted: return xWeighted(text)
        case .mastodon(let urlLength): return mastodon(text, urlLength: urlLength)
        case .weibo: return weibo(text)
        case .graphemes: return text.count
        }
    }

    // MARK: X

    /// twitter-text v3: weights in hundredths, defaultWeight 200, the four ranges at 100.
    static func xWeighted(_ text: String) -> Int {
        let normalized = text.precomposedStringWithCanonicalMapping
        var weight = 0
        for segment in LinkScanner.segments(of: normalized, allowingBareWWW: true) {
            switch segment {
            case .link: weight += 23 * 100
            case .text(let run):
                for character in run {
                    if isEmoji(character) {
                        weight += 200
                        continue
                    }
                    for scalar in character.unicodeScalars { weight += xWeight(of: scalar.value) }
                }
            }
        }
        // twitter-text divides by the scale and rounds down.
        return weight / 100
    }

    private static func xWeight(of value: UInt32) -> Int {
        switch value {
        case 0...4351, 8192...8205, 8208...8223, 8242...8247: return 100
        default: return 200
        }
    }

    /// True for a character that is an emoji as twitter-text parses them: pictographs shown as
    /// emoji by default, text symbols followed by VS16, keycaps, flags, and joined sequences.
    static func isEmoji(_ character: Character) -> Bool {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return false }
        if scalars.count > 1 {
            if scalars.contains(where: { $0.value == 0xFE0F || $0.value == 0x20E3 || $0.value == 0x200D }),
                scalars.contains(where: { $0.properties.isEmoji })
            {
                return true
            }
            if scalars.allSatisfy({ (0x1F1E6...0x1F1FF).contains($0.value) }) { return true }
            if scalars.contains(where: { (0x1F3FB...0x1F3FF).contains($0.value) }) { return true }
        }
        return first.properties.isEmojiPresentation
    }

    // MARK: Mastodon

    static func mastodon(_ text: String, urlLength: Int) -> Int {
        var count = 0
        for segment in LinkScanner.segments(of: text, allowingBareWWW: false) {
            switch segment {
            case .link: count += urlLength
            case .text(let run): count += shortenedMentions(run).count
            }
        }
        return count
    }

    /// `@user@example.social` counts as `@user`: only the local part of a remote mention counts.
    static func shortenedMentions(_ text: Substring) -> String {
        var result = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let startsMention =
                character == "@" && (index == text.startIndex || !isMentionCharacter(text[text.index(before: index)]))
            guard startsMention else {
                result.append(character)
                index = text.index(after: index)
                continue
            }
            let userStart = text.index(after: index)
            var userEnd = userStart
            while userEnd < text.endIndex, isMentionCharacter(text[userEnd]) { userEnd = text.index(after: userEnd) }
            result += text[index..<userEnd]
            index = userEnd
            guard userEnd > userStart, userEnd < text.endIndex, text[userEnd] == "@" else { continue }
            let domainStart = text.index(after: userEnd)
            var domainEnd = domainStart
            while domainEnd < text.endIndex,
                text[domainEnd].isLetter || text[domainEnd].isNumber || text[domainEnd] == "." || text[domainEnd] == "-"
            {
                domainEnd = text.index(after: domainEnd)
            }
            // A sentence's full stop after the domain is not part of it.
            while domainEnd > domainStart, text[text.index(before: domainEnd)] == "." {
                domainEnd = text.index(before: domainEnd)
            }
            // Only a domain with a dot makes a remote mention; otherwise the text stays as it is.
            if text[domainStart..<domainEnd].contains(".") { index = domainEnd }
        }
        return result
    }

    private static func isMentionCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }

    // MARK: Weibo

    static func weibo(_ text: String) -> Int {
        var halves = 0
        for segment in LinkScanner.segments(of: text, allowingBareWWW: false) {
            switch segment {
            case .link: halves += 20
            case .text(let run):
                for scalar in run.unicodeScalars {
                    switch scalar.value {
                    case 0...0xFF: halves += 1
                    case 0x100...0xFFFF: halves += 2
                    default: halves += 4
                    }
                }
            }
        }
        return (halves + 1) / 2
    }
}

/// Finds the links in a post's text the way the services' extractors do, closely enough to count.
enum LinkScanner {
    enum Segment: Equatable {
        case text(Substring)
        case link(Substring)
    }

    /// The text cut into runs of plain text and links (`http://`, `https://`, and with
    /// `allowingBareWWW` also `www.` links); trailing punctuation stays out of a link.
    static func segments(of text: String, allowingBareWWW: Bool) -> [Segment] {
        var segments: [Segment] = []
        var runStart = text.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            if let end = linkEnd(in: text, at: index, allowingBareWWW: allowingBareWWW) {
                if runStart < index { segments.append(.text(text[runStart..<index])) }
                segments.append(.link(text[index..<end]))
                index = end
                runStart = end
            } else {
                index = text.index(after: index)
            }
        }
        if runStart < text.endIndex { segments.append(.text(text[runStart...])) }
        return segments
    }

    /// The links in `text`.
    static func links(in text: String) -> [String] {
        segments(of: text, allowingBareWWW: false).compactMap {
            if case .link(let link) = $0 { return String(link) }
            return nil
        }
    }

    private static func linkEnd(in text: String, at index: String.Index, allowingBareWWW: Bool) -> String.Index? {
        if index > text.startIndex {
            let before = text[text.index(before: index)]
            if before.isLetter || before.isNumber || before == "/" || before == "@" || before == "." { return nil }
        }
        let rest = text[index...]
        let prefixes = allowingBareWWW ? ["https://", "http://", "www."] : ["https://", "http://"]
        guard let prefix = prefixes.first(where: { rest.lowercased().hasPrefix($0) }) else { return nil }
        var end = text.index(index, offsetBy: prefix.count)
        let hostStart = end
        while end < text.endIndex, !text[end].isWhitespace, !"<>\"".contains(text[end]) { end = text.index(after: end) }
        // Sentence punctuation after a link is not part of it.
        while end > hostStart, ".,:;!?'".contains(text[text.index(before: end)]) { end = text.index(before: end) }
        if end > hostStart, text[text.index(before: end)] == ")", !text[hostStart..<end].contains("(") {
            end = text.index(before: end)
        }
        guard end > hostStart, text[hostStart].isLetter || text[hostStart].isNumber else { return nil }
        return end
    }
}
