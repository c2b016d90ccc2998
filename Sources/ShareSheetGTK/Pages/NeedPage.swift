import CGtk
import ShareSheet
import Sharing

/// The page that asks for what the activity found missing while it ran (the PIN a receiver
/// wants): what happened in a sentence, one field, and the button that tries again.
@MainActor
final class NeedPage {
    let widget: Widget
    private let field: FieldView
    private let continueButton: Widget

    /// - Parameters:
    ///   - need: what to ask for, and why.
    ///   - answer: the typed value, or nil when the person gives up.
    init(need: ShareNeed, answer: @escaping @MainActor (String?) -> Void) {
        let page = Widgets.vertical(spacing: 14)
        Widgets.margins(page, 18)
        gtk_widget_set_valign(page, GTK_ALIGN_CENTER)
        Widgets.append(page, Widgets.themedIcon(need.isSecret ? "dialog-password" : "dialog-question", size: 48))
        Widgets.append(page, Widgets.label(Self.sentence(for: need), classes: ["title-4"], wraps: true, centered: true))
        if need.earlierAnswers > 0 {
            Widgets.append(page, Widgets.label("Check it and type it again.", classes: ["dim-label"], wraps: true, centered: true))
        }
        field = FieldView(
            InterfaceField(id: need.field, label: need.label, kind: .text, isRequired: true, isSecret: need.isSecret))
        Widgets.append(page, field.widget)

        let relay = AnswerRelay(answer)
        let field = self.field
        let send = { @MainActor in
            guard let typed = field.value?.text.trimmingCharacters(in: .whitespaces), !typed.isEmpty else {
                field.show(problem: "Type the \(need.label) first")
                return
            }
            relay.give(typed)
        }
        continueButton = Widgets.button("Try Again", classes: ["suggested-action"], action: send)
        let cancelButton = Widgets.button("Cancel") { relay.give(nil) }
        field.onActivate = send
        let buttons = Widgets.horizontal(spacing: 8)
        gtk_widget_set_halign(buttons, GTK_ALIGN_END)
        Widgets.append(buttons, cancelButton, continueButton)
        Widgets.append(page, buttons)
        widget = page
        self.relay = relay
    }

    private let relay: AnswerRelay

    /// Escape or the close button: the person gives up.
    func giveUp() { relay.give(nil) }

    func focus() { field.focus() }

    /// "Desk Laptop asks for a PIN.": the activity's sentence without its own name in front,
    /// which the header already shows.
    static func sentence(for need: ShareNeed) -> String {
        var text = need.reason
        let prefix = need.activityTitle + ": "
        if text.hasPrefix(prefix) { text.removeFirst(prefix.count) }
        if let first = text.first { text = first.uppercased() + text.dropFirst() }
        return text.hasSuffix(".") ? text : text + "."
    }
}

/// Hands the answer on once: a second click, or Escape after Continue, does nothing.
@MainActor
private final class AnswerRelay {
    private var answer: ((String?) -> Void)?
    init(_ answer: @escaping @MainActor (String?) -> Void) { self.answer = answer }
    func give(_ value: String?) {
        guard let answer else { return }
        self.answer = nil
        answer(value)
    }
}
