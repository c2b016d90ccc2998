/// A presenter that never asks anyone: it picks one activity by type and fills the interface
/// from given values. What the `share` command uses with `--activity`, and what tests use.
@MainActor
public final class ScriptedPresenter: Presenter {
    /// The activity to pick; nil dismisses the sheet at once.
    public let pick: ActivityType?
    /// Values for the interface's fields by id, on top of the fields' defaults (which carry the
    /// controller's `presetValues`). Text is converted to each field's kind (lists split on
    /// commas).
    public var values: InterfaceValues
    /// The sheet as it was shown.
    public private(set) var shownSheet: ActivitySheet?
    /// The interface as it was shown.
    public private(set) var shownInterface: ActivityInterface?
    /// True when the sheet did not offer `pick`.
    public private(set) var pickWasUnavailable = false
    /// Progress lines seen, one per provider started.
    public private(set) var providerNames: [String] = []
    /// How the caller gives a field a value, for messages: the field's id and the value given
    /// (nil when none was). The default names the field in plain words ("to", "to 'x'"); a
    /// front end words it as its own syntax (the `share` command as `--set ID=VALUE` or `--to`).
    public var settingSyntax: @MainActor (_ id: String, _ value: String?) -> String = { id, value in
        value.map { "\(id) '\($0)'" } ?? id
    }

    /// Makes a presenter that picks `pick` and fills interfaces from `values`.
    public init(pick: ActivityType?, values: InterfaceValues = [:]) {
        self.pick = pick
        self.values = values
    }

    public func present(sheet: ActivitySheet, controller: ActivityViewController) {
        shownSheet = sheet
        guard let pick else { return controller.dismiss() }
        if !controller.select(pick) {
            pickWasUnavailable = true
            controller.dismiss()
        }
    }

    public func providersDidStart(_ providers: [ProviderProgress], controller: ActivityViewController) {
        providerNames += providers.map(\.name)
    }

    public func present(interface: ActivityInterface, for activity: Activity, controller: ActivityViewController) {
        shownInterface = interface
        var filled: InterfaceValues = [:]
        for field in interface.fields {
            if let value = values[field.id] {
                filled[field.id] = Self.converted(value, for: field) ?? value
            } else if let value = field.defaultValue {
                filled[field.id] = value
            }
        }
        let problems = controller.submitInterface(filled)
        guard !problems.isEmpty else { return }
        // Nobody can be asked: say which fields need a value and stop.
        let title = activity.activityTitle ?? interface.title
        let settingSyntax = self.settingSyntax
        let details = interface.fields.compactMap { field in
            problems[field.id].map { problem in
                // A value given ahead that does not fit is named as it was given.
                if field.isPreset, values[field.id] == nil, let given = filled[field.id], !given.isEmpty {
                    return "\(settingSyntax(field.id, given.text)): \(problem)"
                }
                // A choice names its options, so the next command can be typed from the error.
                if case .choice(let options) = field.kind, !options.current.isEmpty {
                    let ids = options.current.map { "\($0.id) (\($0.title))" }
                    return "\(problem) (set it with \(settingSyntax(field.id, nil)): one of " + ids.joined(separator: ", ") + ")"
                }
                return "\(problem) (set it with \(settingSyntax(field.id, nil)))"
            }
        }
        let first = interface.fields.first { problems[$0.id] != nil }
        controller.cancelInterface(
            reason: ShareError(.usage, "\(title): " + details.joined(separator: "; "), setting: first.map { .init($0.id) }))
    }

    private static func converted(_ value: InterfaceValue, for field: InterfaceField) -> InterfaceValue? {
        guard case .text(let text) = value else { return value }
        return field.value(fromText: text)
    }
}
