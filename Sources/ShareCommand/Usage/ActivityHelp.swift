import ShareSheet
import ShareSheetSystem
import Sharing

/// `share help ACTIVITY`: what one activity does on this machine with this configuration, the
/// fields `--set` fills and the settings it reads, in the command's words.
@MainActor
enum ActivityHelp {
    /// The whole page for `overview`; `configurationFile` is where the settings are read from.
    static func text(of overview: ActivityOverview, configurationFile: String) -> String {
        let name = overview.name
        var text = "\(name.title) (\(name.name), \(name.activityType)): in the \(name.category) row\n"
        if let accepts = overview.accepts { text += "takes: \(accepts)\n" }
        if let unavailable = overview.unavailable {
            text += "not available in this build: \(unavailable)\n"
            return text
        }
        if let route = overview.route {
            text += "\n" + routeLines(route, configurationFile: configurationFile, label: "here")
        }
        if !overview.fields.isEmpty {
            text += "\nFields (share --activity \(name.name) --set ID=VALUE):\n"
            let idWidth = overview.fields.map(\.id.count).max() ?? 0
            let labelWidth = overview.fields.map(\.label.count).max() ?? 0
            for field in overview.fields {
                text += "  " + field.id.padding(idWidth) + "  " + field.label.padding(labelWidth) + "  " + describe(field) + "\n"
            }
        }
        for group in overview.configuration {
            text += "\nSettings of [\(group.name)] in \(configurationFile) (\(group.meaning)):\n"
            text += ConfigurationReference.settingLines(group)
        }
        return text
    }

    /// "here: ROUTE", and for a fallback the settings that change it.
    static func routeLines(_ route: ActivityRoute, configurationFile: String, label: String) -> String {
        var text = "\(label): \(route.summary)\n"
        if route.isFallback, !route.settings.isEmpty {
            let keys = route.settings.map { "[\($0.group)] \($0.key)=" }
            text += "  to change it, set \(CommandSpec.list(keys)) in \(configurationFile)\n"
        }
        return text
    }

    /// The field's kind in words, whether it is required, its default and its hint.
    static func describe(_ field: InterfaceField) -> String {
        var parts = [kind(field.kind)]
        if field.isRequired { parts.append("required") }
        if let value = field.defaultValue, !value.isEmpty { parts.append("default \(value.text)") }
        if let help = field.help { parts.append(help) }
        return parts.joined(separator: "; ")
    }

    private static func kind(_ kind: InterfaceField.Kind) -> String {
        switch kind {
        case .text: return "text"
        case .multilineText: return "text (several lines)"
        case .emailAddresses: return "e-mail addresses, comma-separated"
        case .phoneNumbers: return "phone numbers, comma-separated"
        case .choice(let options):
            let ids = options.current.map(\.id)
            return ids.isEmpty ? "one choice" : "one of " + ids.joined(separator: ", ")
        case .toggle: return "yes or no"
        case .integer(let range): return "a number from \(range.lowerBound) to \(range.upperBound)"
        }
    }
}
