/// How many terminal columns text takes, and text cut or wrapped to a number of columns.
///
/// Measured per grapheme cluster, the way terminals draw: East Asian wide and full-width
/// characters and emoji take 2 columns, combining marks and other zero-width scalars (joiners,
/// variation selectors) take none, ANSI escape sequences take none.
public enum TextWidth {
    /// The columns `text` takes.
    public static func columns(of text: String) -> Int {
        var width = 0
        var inEscape = false
        for character in text {
            if inEscape {
                // A CSI sequence ends with a final byte in 0x40…0x7E other than its "[".
                if let scalar = character.unicodeScalars.first, (0x40...0x7E).contains(scalar.value), scalar != "[" {
                    inEscape = false
                }
                continue
            }
            if character == "\u{1B}" {
                inEscape = true
                continue
            }
            width += columns(of: character)
        }
        return width
    }

    /// The columns one grapheme cluster takes: 0, 1 or 2.
    public static func columns(of character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        // A cluster that is an emoji (emoji presentation, or text presentation turned into
        // emoji by U+FE0F, or a ZWJ sequence) takes two columns however many scalars it holds.
        if first.properties.isEmojiPresentation
            || (first.properties.isEmoji && scalars.contains("\u{FE0F}"))
            || (scalars.count > 1 && first.properties.isEmoji && scalars.contains("\u{200D}"))
        {
            return 2
        }
        var width = 0
        for scalar in scalars { width += columns(of: scalar) }
        return min(width, 2)
    }

    /// The columns one scalar takes on its own.
    static func columns(of scalar: Unicode.Scalar) -> Int {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control:
            return 0
        default:
            break
        }
        if scalar.value == 0x200B || (0x1160...0x11FF).contains(scalar.value) { return 0 }  // zero-width space, Hangul vowels and finals
        return isWide(scalar) || scalar.properties.isEmojiPresentation ? 2 : 1
    }

    /// East Asian Wide and Fullwidth ranges (Unicode's EastAsianWidth.txt, W and F), in the
    /// blocks that matter for names and titles.
    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x115F,  // Hangul Jamo initials
            0x2E80...0x303E,  // CJK radicals, ideographic description, CJK symbols and punctuation
            0x3041...0x33FF,  // Hiragana, Katakana, Bopomofo, Hangul compatibility, CJK compatibility
            0x3400...0x4DBF,  // CJK extension A
            0x4E00...0x9FFF,  // CJK unified ideographs
            0xA000...0xA4CF,  // Yi
            0xA960...0xA97F,  // Hangul Jamo extended A
            0xAC00...0xD7A3,  // Hangul syllables
            0xF900...0xFAFF,  // CJK compatibility ideographs
            0xFE10...0xFE19, 0xFE30...0xFE6F,  // vertical forms, CJK compatibility forms, small forms
            0xFF00...0xFF60, 0xFFE0...0xFFE6,  // full-width forms
            0x1F300...0x1F64F, 0x1F900...0x1F9FF,  // pictographs and emoji drawn wide
            0x20000...0x2FFFD, 0x30000...0x3FFFD:  // CJK extensions B and beyond
            return true
        default:
            return false
        }
    }

    /// `text` cut to at most `limit` columns, ending in "…" when it was cut. Escape sequences
    /// are kept whole.
    public static func truncate(_ text: String, to limit: Int) -> String {
        guard limit > 0 else { return "" }
        guard columns(of: text) > limit else { return text }
        guard limit > 1 else { return "…" }
        var result = ""
        var used = 0
        var inEscape = false
        var sawEscape = false
        for character in text {
            if inEscape || character == "\u{1B}" {
                // Escapes cost nothing; keep them so colors are closed properly.
                result.append(character)
                if character == "\u{1B}" {
                    inEscape = true
                    sawEscape = true
                } else if let scalar = character.unicodeScalars.first, (0x40...0x7E).contains(scalar.value), scalar != "[" {
                    inEscape = false
                }
                continue
            }
            let width = columns(of: character)
            if used + width > limit - 1 { break }
            result.append(character)
            used += width
        }
        // A cut colored text ends its colors before the ellipsis.
        return result + (sawEscape ? "\u{1B}[0m" : "") + "…"
    }

    /// `text` broken into lines of at most `width` columns, at spaces where it can, inside a
    /// word only when the word alone is wider than a line.
    public static func wrap(_ text: String, width: Int) -> [String] {
        let width = max(1, width)
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var lineWidth = 0
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: true).map(String.init) {
                var word = word
                var wordWidth = columns(of: word)
                let gap = line.isEmpty ? 0 : 1
                if lineWidth + gap + wordWidth <= width {
                    line += (gap == 1 ? " " : "") + word
                    lineWidth += gap + wordWidth
                    continue
                }
                if !line.isEmpty {
                    lines.append(line)
                    line = ""
                    lineWidth = 0
                }
                // A word wider than a line is broken by columns.
                while wordWidth > width {
                    var head = ""
                    var headWidth = 0
                    var rest = Substring(word)
                    while let next = rest.first, headWidth + columns(of: next) <= width {
                        head.append(next)
                        headWidth += columns(of: next)
                        rest = rest.dropFirst()
                    }
                    if head.isEmpty, let next = rest.first {
                        head.append(next)
                        rest = rest.dropFirst()
                    }
                    lines.append(head)
                    word = String(rest)
                    wordWidth = columns(of: word)
                }
                line = word
                lineWidth = wordWidth
            }
            lines.append(line)
        }
        return lines
    }
}

extension String {
    /// The number of columns the text takes on a terminal, ignoring ANSI escape sequences.
    var visibleWidth: Int { TextWidth.columns(of: self) }

    /// The text cut to `limit` columns, ending in "…" when it was cut.
    func truncated(to limit: Int) -> String { TextWidth.truncate(self, to: limit) }

    /// The text padded with spaces to `width` columns.
    func padded(to width: Int) -> String {
        let missing = width - visibleWidth
        return missing > 0 ? self + String(repeating: " ", count: missing) : self
    }
}
