import ShareSheet

/// Values a caller sets ahead for the activity's fields: the command's `--to`, `--subject`,
/// `--set KEY=VALUE`, the service's `fields`. The controller applies them to the interface, so
/// every presenter shows them filled in and never asks for them again.
public struct SharePresets: Sendable, Equatable {
    /// Recipients (`to`), for Mail and Message.
    public var to: [String]
    /// The subject.
    public var subject: String?
    /// Any other field or setting by key (`cc`, `smtp`, `printer`, `app`…).
    public var settings: [(key: String, value: String)]

    /// Makes presets; all empty by default.
    public init(to: [String] = [], subject: String? = nil, settings: [(key: String, value: String)] = []) {
        self.to = to
        self.subject = subject
        self.settings = settings
    }

    /// The presets as interface values, as text each field converts to its own kind.
    public var values: InterfaceValues {
        var values: InterfaceValues = [:]
        if let subject { values["subject"] = .text(subject) }
        if !to.isEmpty { values["to"] = .text(to.joined(separator: ",")) }
        for setting in settings { values[setting.key] = .text(setting.value) }
        return values
    }

    /// The keys set with `settings`, in order.
    public var settingKeys: [String] { settings.map(\.key) }

    public static func == (lhs: SharePresets, rhs: SharePresets) -> Bool {
        lhs.to == rhs.to && lhs.subject == rhs.subject && lhs.settings.map(\.key) == rhs.settings.map(\.key)
            && lhs.settings.map(\.value) == rhs.settings.map(\.value)
    }
}
