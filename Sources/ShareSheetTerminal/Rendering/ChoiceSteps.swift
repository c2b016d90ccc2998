import ShareSheet

/// The words the terminal sheet takes, beside an activity, to change what is sent (SPEC §13):
/// `items` leaves items out, `size` sets the size photos go at, `location` keeps or removes
/// their location, `edit` opens a text item in the editor.
public enum ChoiceStep: String, CaseIterable, Sendable {
    case items
    case size
    case location
    case edit

    /// The steps that mean something for a sheet of these item kinds: `items` for several
    /// items, `size` and `location` when one is a photo, `edit` when one is text.
    public static func offered(for kinds: [ItemKind]) -> [ChoiceStep] {
        var steps: [ChoiceStep] = []
        if kinds.count > 1 { steps.append(.items) }
        if kinds.contains(where: \.isImage) { steps += [.size, .location] }
        if kinds.contains(where: { $0 == .string }) { steps.append(.edit) }
        return steps
    }

    /// The step a person typed (a whole word, any case), when it is one of `offered`.
    public static func named(_ typed: String, among offered: [ChoiceStep]) -> ChoiceStep? {
        let word = typed.trimmingCharacters(in: .whitespaces).lowercased()
        return offered.first { $0.rawValue == word }
    }

    /// The sheet's lines about what is sent, under the rows: how many items go, how photos go,
    /// and the words that change it. Empty when no step is offered.
    @MainActor
    public static func lines(for kinds: [ItemKind], choices: ItemChoices, style: TerminalStyle) -> String {
        let offered = offered(for: kinds)
        guard !offered.isEmpty else { return "" }
        var said: [String] = []
        if !choices.leftOut.isEmpty {
            said.append("\(kinds.count - choices.leftOut.count) of \(kinds.count) items go.")
        }
        if kinds.contains(where: \.isImage) {
            said.append("Photos go at \((choices.imageSize ?? .original).title.lowercased()) size.")
            said.append(
                choices.keepsLocation == true
                    ? "Location and camera serial go with them."
                    : "Location and camera serial are removed when they leave this computer.")
        }
        var text = said.map { $0.truncated(to: style.width) + "\n" }.joined()
        let words = offered.map { style.bold($0.rawValue) }
        let listed =
            words.count == 1
            ? words[0] : words.dropLast().joined(separator: style.dim(", ")) + style.dim(" or ") + words[words.count - 1]
        text += style.dim("To change what is sent, type ") + listed + style.dim(".") + "\n"
        return text
    }
}

