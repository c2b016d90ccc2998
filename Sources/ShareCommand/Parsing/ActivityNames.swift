import ShareSheet

/// Turns the names people type (`mail`, `reading-list`, `com.apple.UIKit.activity.Mail`) into
/// activity types, with a suggestion when a name is unknown.
@MainActor
enum ActivityNames {
    /// The type of the built-in named `name` (its command name, any case, or its raw type).
    /// - Throws: a usage error with the closest names when nothing has that name.
    static func type(named name: String, in registry: ActivityRegistry) throws -> ActivityType {
        if let descriptor = registry.descriptor(named: name) ?? registry.descriptor(named: name.lowercased()) {
            return descriptor.type
        }
        let close = Suggestions.closest(to: name, among: registry.descriptors.map(\.name))
        let hint = close.isEmpty ? "see share --help for the names" : "did you mean \(Suggestions.phrase(close))?"
        throw ShareError(.usage, "share: unknown activity '\(name)' (\(hint))")
    }

    /// The command name of a type, else its raw value.
    static func name(of type: ActivityType, in registry: ActivityRegistry) -> String {
        registry.descriptor(for: type)?.name ?? type.rawValue
    }
}
