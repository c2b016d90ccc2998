import Foundation
import ShareSheet
import ShareSheetSystem
import ShareTargets

/// `share targets list|enable|disable|check`: the share targets installed applications add to
/// the sheet (SPEC §9), turning one off or on, and checking an entry before installing it.
enum TargetsCommand: ShareSubcommand {
    static let spec = CommandSpec(
        name: "targets", summary: "the share targets installed applications add to the sheet",
        about: "A share target is an application's desktop entry with X-ShareSheet-Accepts= (see the README, "
            + "\"Make your app a share target\"). NAME is its desktop id, with or without .desktop.",
        actions: [
            ActionSpec(
                name: "list", summary: "installed share targets, on or off",
                options: [JSONOutput.jsonOption, JSONOutput.prettyOption]),
            ActionSpec(name: "disable", operands: "NAME", summary: "turn a target off on every sheet ([targets] disabled=)"),
            ActionSpec(name: "enable", operands: "NAME", summary: "turn a target on again"),
            ActionSpec(
                name: "check", operands: "FILE.desktop|ID", operandKind: .file,
                summary: "check an entry (a file, or an installed desktop id), and say what it is offered for (65 when broken)"),
        ],
        examples: ["share targets check org.example.Notes.desktop", "share targets disable org.example.Notes"])

    static func run(_ arguments: [String], context: CommandContext) async throws -> Termination {
        let action = try spec.action(named: arguments.first)
        let parsed = try options(Array(arguments.dropFirst()), for: action)
        var rest = parsed.operands[...]
        let host = HostEnvironment(variables: context.environment)
        switch action.name {
        case "list":
            guard rest.isEmpty else { throw ShareError(.usage, "targets list takes no operands") }
            try list(host: host, format: try JSONOutput.format(parsed, command: "targets list"), context: context)
            return .success
        case "disable", "enable":
            guard let name = rest.popFirst(), rest.isEmpty else {
                throw ShareError(.usage, "targets \(action.name): name one target (share targets list shows them)")
            }
            let target = try installedTarget(named: name, host: host)
            let enabled = action.name == "enable"
            let changed = try TargetSettings.set(target.name, enabled: enabled, in: host)
            let state = enabled ? "on" : "off"
            context.standardOutput.write(
                changed
                    ? "\(target.name): turned \(state) (\(host.configurationFileDisplayPath), [targets] disabled=)\n"
                    : "\(target.name): already \(state)\n")
            return .success
        case "check":
            guard let file = rest.popFirst(), rest.isEmpty else {
                throw ShareError(.usage, "targets check: name one .desktop file or desktop id")
            }
            let path = try entryPath(of: file, host: host, currentDirectory: context.currentDirectory)
            let report = try TargetEntryCheck.check(path: path, environment: host)
            context.standardOutput.write(describe(report, file: file))
            if report.isValid { return .success }
            let count = report.findings.filter { $0.severity == .problem }.count
            return Termination(status: 65, message: "\(file): \(count == 1 ? "1 problem" : "\(count) problems")")
        default:
            preconditionFailure("an action of the spec without a case: \(action.name)")
        }
    }

    /// The entry `targets check` reads for `operand`: the file when there is one at that path,
    /// else the installed entry of that desktop id (`org.example.App.desktop` or
    /// `org.example.App`) in the first application folder that has it, as the sheet finds it.
    /// A path stays as given, so the check says it is missing; a desktop id that is not
    /// installed is said to be neither a file here nor an installed entry.
    private static func entryPath(of operand: String, host: HostEnvironment, currentDirectory: String) throws -> String {
        let path = operand.hasPrefix("/") ? operand : currentDirectory + "/" + operand
        guard !operand.contains("/"), !FileManager.default.fileExists(atPath: path) else { return path }
        let file = ShareTarget.name(ofDesktopID: operand) + ".desktop"
        let folders = TargetCatalog.folders(for: host)
        for folder in folders where FileManager.default.fileExists(atPath: folder + "/" + file) {
            return folder + "/" + file
        }
        throw ShareError(
            .noInput, "\(operand): no such file here, and no desktop entry \(file) is installed (looked in \(folders.joined(separator: ", ")))")
    }

    /// The target called `name` (its desktop id, with or without `.desktop`).
    private static func installedTarget(named name: String, host: HostEnvironment) throws -> ShareTarget {
        let targets = ShareTargetExtensions.shared.catalog(for: host).targets
        let wanted = ShareTarget.name(ofDesktopID: name)
        if let target = targets.first(where: { $0.name == wanted || $0.activityType.rawValue == name }) { return target }
        let close = Suggestions.closest(to: wanted, among: targets.map(\.name))
        let hint = close.isEmpty ? "share targets list shows them" : "did you mean \(Suggestions.phrase(close))?"
        throw ShareError(.usage, "targets: no target named '\(name)' is installed (\(hint))")
    }

    /// One listed target, as `--json` gives it.
    struct Listing: Codable {
        var name: String
        var activityType: String
        var title: String
        var category: String
        var accepts: String?
        var reach: String
        var iconName: String?
        var entry: String
        var enabled: Bool
        var problem: String?

        // Every key present, null when empty, like every other listing's JSON.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(activityType, forKey: .activityType)
            try container.encode(title, forKey: .title)
            try container.encode(category, forKey: .category)
            try container.encode(accepts, forKey: .accepts)
            try container.encode(reach, forKey: .reach)
            try container.encode(iconName, forKey: .iconName)
            try container.encode(entry, forKey: .entry)
            try container.encode(enabled, forKey: .enabled)
            try container.encode(problem, forKey: .problem)
        }
    }

    private static func list(host: HostEnvironment, format: JSONOutput.Format?, context: CommandContext) throws {
        let catalog = ShareTargetExtensions.shared.catalog(for: host)
        let settings = TargetSettings(environment: host)
        let listings = catalog.targets.map { target -> Listing in
            let reach: String
            switch target.reach {
            case .dbus(let name)?: reach = "dbus:" + name
            case .exec(let commandLine)?: reach = "exec:" + commandLine
            case nil: reach = "none"
            }
            return Listing(
                name: target.name, activityType: target.activityType.rawValue, title: target.title,
                category: target.category == .share ? "share" : "action", accepts: target.accepts?.summary, reach: reach,
                iconName: target.iconName, entry: target.path, enabled: !settings.disabled.contains(target.name),
                problem: target.problem)
        }
        if let format {
            try JSONOutput.write(listings, format: format, to: context)
            return
        }
        if listings.isEmpty {
            context.standardOutput.write(
                "no share targets installed (an application adds one with a desktop entry in \(catalog.folders[0]); see the README)\n")
        }
        for listing in listings {
            let state = !listing.enabled ? "off (share targets enable \(listing.name))" : listing.problem.map { "broken: \($0)" } ?? "on"
            context.standardOutput.write(
                "\(listing.name)  \(listing.title)  [\(listing.category)]  \(state)\n    takes \(listing.accepts ?? "nothing")\n    \(listing.entry)\n")
        }
        for line in catalog.unreadable { context.warn("targets: \(line)") }
    }

    private static func describe(_ report: TargetEntryCheck, file: String) -> String {
        var text = ""
        for finding in report.findings {
            text += "\(finding.severity == .problem ? "problem" : "note"): \(finding.message)\n"
        }
        if !report.offeredFor.isEmpty {
            text += "offered for:\n" + report.offeredFor.map { "  \($0)\n" }.joined()
        }
        text += report.isValid ? "\(file): a valid share target\n" : ""
        return text
    }
}
