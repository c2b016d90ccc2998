import Foundation
import ShareSheet
import ShareSheetBuiltins
import ShareSheetSystem
import ShareSheetTerminal
import Sharing

/// The `share` command (SPEC §4): parses the arguments, runs the sheet, a listing, an
/// explanation or one activity, and turns the outcome into an exit status.
public enum ShareCommand {
    /// The version `share --version` prints.
    public static let version = Help.version

    /// Runs the command on the process's own streams with every backend of this build installed.
    /// Call it inside `GLibMainLoop`: the sheet may be a window.
    /// - Parameters:
    ///   - arguments: the arguments, without the program name.
    ///   - labels: how to show arguments that stand in for a name (`RawArguments.withLabels`).
    /// - Returns: the exit status (sysexits).
    @MainActor
    public static func main(_ arguments: [String], labels: [String: String] = [:]) async -> Int32 {
        Builtins.install(into: .shared)
        var context = CommandContext()
        context.canOpenWindows = true
        context.argumentLabels = labels
        // The process's own terminal: arrow keys for the pick, libedit for the fields (each
        // used only when standard input and output are both a terminal).
        context.keys = TerminalKeySource(descriptor: STDIN_FILENO)
        context.lineEditor = EditedLineSource()
        context.controllingTerminal = ControllingTerminal()
        return await run(arguments, context: context)
    }

    /// Runs the command in `context` (its registry is used as it is).
    /// - Parameter arguments: the arguments, without the program name.
    /// - Returns: the exit status (sysexits).
    @MainActor
    public static func run(_ arguments: [String], context: CommandContext) async -> Int32 {
        // Activities (and the share targets' folders) read the host's environment from the
        // registry, never from the process.
        context.registry.environment = HostEnvironment(variables: context.environment)
        if let name = arguments.first, name == "help" {
            return finish(help(topic: Array(arguments.dropFirst()), context: context), context: context)
        }
        if let name = arguments.first, let subcommand = Subcommands.named(name) {
            let rest = Array(arguments.dropFirst())
            if rest.prefix(while: { $0 != "--" }).contains(where: { $0 == "-h" || $0 == "--help" }) {
                context.standardOutput.write(CommandHelp.text(of: subcommand.spec))
                return 0
            }
            do {
                return finish(try await subcommand.run(rest, context: context), context: context)
            } catch {
                return finish(Termination.of(error), context: context)
            }
        }
        if let name = arguments.first, let mistyped = mistypedCommand(name, context: context) {
            return finish(Termination.of(mistyped), context: context)
        }
        let invocation: Invocation
        do {
            invocation = try Invocation.parse(arguments)
        } catch {
            return finish(Termination.of(error), context: context)
        }
        var runner = Runner(invocation: invocation, context: context)
        do {
            return finish(try await runner.run(), context: context)
        } catch {
            let termination = Termination.of(error)
            if let format = invocation.jsonFormat, invocation.mode.printsResult {
                var result = ShareResult(failure: error)
                // Named with --activity, the activity is known even when the share never
                // started (a missing file, an activity not offered for these items).
                let names = ActivityNames(registry: context.registry)
                if case .activity(let name) = invocation.mode, let type = try? names.type(named: name) {
                    result.activityType = type.rawValue
                    result.activity = names.name(of: type)
                }
                result = CommandWords.worded(result)
                context.standardOutput.write(((try? JSONOutput.text(result, format: format)) ?? result.json) + "\n")
            }
            return finish(termination, context: context)
        }
    }

    /// `share help`, `share help SUBCOMMAND`, `share help ACTIVITY`, `share help config`.
    @MainActor
    private static func help(topic: [String], context: CommandContext) -> Termination {
        guard let word = topic.first else {
            context.standardOutput.write(
                Help.text(activityNames: ActivityNames(registry: context.registry).all, subcommandUsage: Subcommands.specs.flatMap(CommandHelp.usageLines)))
            return .success
        }
        if topic.count > 1 { return Termination.of(ShareError(.usage, "help: one topic at a time ('\(topic[1])' is one too many)")) }
        let host = ShareHost(registry: context.registry)
        if let subcommand = Subcommands.named(word) {
            context.standardOutput.write(CommandHelp.text(of: subcommand.spec))
            // `reading-list` is a command too: its activity's page is under its raw type.
            return .success
        }
        if ConfigurationReference.topics.contains(word) {
            context.standardOutput.write(ConfigurationReference.text)
            return .success
        }
        // An activity's name (a prefix of one picks it): what it does here.
        if let overview = try? host.overview(ofActivityNamed: word) {
            context.standardOutput.write(
                ActivityHelp.text(of: overview, configurationFile: host.environment.configurationFileDisplayPath))
            return .success
        }
        let topics = Subcommands.all.map { $0.name } + host.names.all + ConfigurationReference.topics
        let close = Suggestions.closest(to: word, among: topics)
        let hint = close.isEmpty
            ? "give a command, an activity or config: " + CommandSpec.list(Subcommands.all.map { $0.name })
            : "did you mean \(Suggestions.phrase(close))?"
        return Termination.of(ShareError(.usage, "help: no command, activity or topic '\(word)' (\(hint))"))
    }

    /// A first word that is neither a file nor a command, but close to a command's name
    /// (`share outbx list`): said as such, instead of "no such file".
    @MainActor
    private static func mistypedCommand(_ word: String, context: CommandContext) -> ShareError? {
        guard !word.hasPrefix("-"), !word.contains("/"), !word.contains(":"), !word.contains(".") else { return nil }
        let path = (context.currentDirectory as NSString).appendingPathComponent(word)
        guard !FileManager.default.fileExists(atPath: path) else { return nil }
        let close = Suggestions.closest(to: word, among: Subcommands.all.map { $0.name } + ["help"])
        guard !close.isEmpty else { return nil }
        return ShareError(.usage, "'\(word)' is neither a file nor a command (did you mean \(Suggestions.phrase(close))?)")
    }

    @MainActor
    private static func finish(_ termination: Termination, context: CommandContext) -> Int32 {
        if let line = termination.line { context.standardError.write(line) }
        return termination.status
    }
}

extension Invocation.Mode {
    /// True for the modes that end with a result object under `--json`.
    var printsResult: Bool {
        switch self {
        case .sheet, .activity, .suggestion: return true
        default: return false
        }
    }
}
