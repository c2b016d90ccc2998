import CGtk
import ShareSheet

/// Open In's own page (SPEC §7, "Open In: applications with icons and 'always use'"): what is
/// opened, "Always use for this type" to make the pick the desktop's default, then the
/// applications that fit, each a row with its icon and whether it is the default or merely
/// registered; a click or Enter on a row opens the item with it at once.
///
/// The page only draws the activity's interface: the applications are the options of its
/// choice field and "always" is its toggle, handed back as the generic form would.
@MainActor
final class ApplicationChooserPage {
    let widget: Widget

    private let interface: ActivityInterface
    private let choiceField: InterfaceField
    private let toggleField: InterfaceField?
    private let submit: @MainActor (InterfaceValues) -> [String: String]
    private let cancelAction: @MainActor () -> Void
    private let backAction: (@MainActor () -> Void)?
    private var finished = false

    private let applications = DeviceList()
    private let always: Widget?
    private let problem: Widget

    /// The interface's choice of application and its "always" toggle, when it has them.
    static func fields(of interface: ActivityInterface) -> (choice: InterfaceField, options: ChoiceOptions, toggle: InterfaceField?)? {
        guard let choice = interface.fields.first(where: { if case .choice = $0.kind { return true } else { return false } }),
            case .choice(let options) = choice.kind
        else { return nil }
        let toggle = interface.fields.first { $0.kind.isToggle }
        // Other fields would go unasked here: those interfaces keep the generic form.
        guard interface.fields.count == (toggle == nil ? 1 : 2) else { return nil }
        return (choice, options, toggle)
    }

    /// - Parameters:
    ///   - interface: Open In's interface.
    ///   - submit: hands the values to the controller; returns the problems it found.
    ///   - back: returns to the sheet; nil when there is no sheet to return to.
    ///   - cancel: ends the share.
    init?(
        interface: ActivityInterface, submit: @escaping @MainActor (InterfaceValues) -> [String: String],
        back: (@MainActor () -> Void)?, cancel: @escaping @MainActor () -> Void
    ) {
        guard let (choice, options, toggle) = Self.fields(of: interface) else { return nil }
        self.interface = interface
        choiceField = choice
        toggleField = toggle
        self.submit = submit
        backAction = back
        cancelAction = cancel

        let page = Widgets.vertical(spacing: 12)
        Widgets.margins(page, 18)
        if let message = interface.message {
            Widgets.append(page, Widgets.label(message, classes: ["heading"], wraps: true))
        }
        if let toggle {
            let check = gtk_check_button_new_with_label(toggle.label)!
            if case .bool(true) = toggle.defaultValue { gtk_check_button_set_active(cg_check(check), 1) }
            cg_set_accessible_label(check, toggle.label)
            if let help = toggle.help {
                gtk_widget_set_tooltip_text(check, Sentence.of(help))
                cg_set_accessible_description(check, Sentence.of(help))
            }
            always = check
        } else {
            always = nil
        }
        problem = Widgets.label("", classes: ["error"], wraps: true)
        Widgets.show(problem, false)
        // "Always" before the list: it is set first, as a row opens at once; Shift+Tab from
        // the first application reaches it.
        if let always {
            let section = Widgets.vertical(spacing: 2)
            Widgets.append(section, always)
            if let help = toggleField?.help {
                let line = Widgets.label(Sentence.of(help), classes: ["dim-label", "caption"], wraps: true)
                gtk_widget_set_margin_start(line, 28)
                Widgets.append(section, line)
            }
            Widgets.append(page, section)
        }
        Widgets.append(page, applications.widget, problem)
        let (column, backRelay, cancelRelay) = LeavingButtons.column(scrolling: page, canGoBack: back != nil)
        widget = column

        backRelay.action = { [weak self] in self?.back() }
        cancelRelay.action = { [weak self] in self?.cancel() }
        applications.onPick = { [weak self] option in self?.open(with: option) }
        for option in options.current { applications.add(Self.described(option)) }
        options.observe { [weak self] option in self?.applications.add(Self.described(option)) }
    }

    /// The option with its role in words a person reads ("Default", "Recommended", and for an
    /// application registered only for a broader type, "Other application", as GNOME's Open
    /// With dialog groups them; not GIO's "fallback").
    private static func described(_ option: ChoiceOptions.Option) -> ChoiceOptions.Option {
        var described = option
        described.detail = option.detail.map { detail in
            detail == "fallback" ? "Other application" : detail.prefix(1).uppercased() + detail.dropFirst()
        }
        if described.iconName == nil { described.iconName = "application-x-executable" }
        return described
    }

    /// Opens the item with `option`'s application, "always" as the check says.
    private func open(with option: ChoiceOptions.Option) {
        guard !finished else { return }
        var values: InterfaceValues = [:]
        for field in interface.fields { values[field.id] = field.defaultValue }
        values[choiceField.id] = .choice(option.id)
        if let toggleField, let always { values[toggleField.id] = .bool(gtk_check_button_get_active(cg_check(always)) != 0) }
        let problems = submit(values)
        if problems.isEmpty {
            finished = true
            return
        }
        Widgets.setText(problem, Sentence.of(problems.sorted { $0.key < $1.key }.map(\.value).joined(separator: "; ")))
        Widgets.show(problem, true)
    }

    /// The first application (the default), so Enter opens with it.
    func focus() { applications.focusFirst() }

    /// Cancels the share (Cancel, Escape, the close button).
    func cancel() {
        guard !finished else { return }
        finished = true
        cancelAction()
    }

    private func back() {
        guard !finished, let backAction else { return }
        finished = true
        backAction()
    }
}
