/// Prompts for a line editor that can only take ASCII (no UTF-8 locale on this system).
enum PromptText {
    /// `text` with the typographic characters the sheet uses spelled in ASCII ("1–99" → "1-99",
    /// "…" → "...") and any other non-ASCII character as "?": libedit cannot show them there.
    static func ascii(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case _ where scalar.isASCII: result.unicodeScalars.append(scalar)
            case "\u{2013}", "\u{2014}", "\u{2212}": result += "-"
            case "\u{2026}": result += "..."
            case "\u{2018}", "\u{2019}": result += "'"
            case "\u{201C}", "\u{201D}": result += "\""
            default: result += "?"
            }
        }
        return result
    }
}
