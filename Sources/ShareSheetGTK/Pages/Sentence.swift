/// An activity's words as a page shows them: "Port 0 is not a port." for "port 0 is not a
/// port": a capital first, a full stop last unless it ends in one or an ellipsis; "" for none.
enum Sentence {
    static func of(_ text: String?) -> String {
        guard let text, let first = text.first else { return "" }
        let capitalised = first.uppercased() + text.dropFirst()
        return capitalised.hasSuffix(".") || capitalised.hasSuffix("…") ? capitalised : capitalised + "."
    }
}
