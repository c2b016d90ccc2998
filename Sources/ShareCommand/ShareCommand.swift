import Foundation
import ShareSheet
import ShareSheetBuiltins
import ShareSheetTerminal
import Sharing

/// The `share` command (SPEC §4): parses the arguments, runs the sheet, a listing, an
/// explanation or one activity, and turns the outcome into an exit status.
public enum ShareCommand {
    /// The version `share --version` prints.
    public static let version = Help.version

    /// Runs the command on the process's own streams with every backend of this build installed.
    /// Call it inside `GLibMainLoop`: the sheet may be a window.
    /// - Parameter arguments: the arguments, without the program name.
    /// - Returns: the exit status (sysexits).
    @MainActor
    public static func main(_ arguments: [String]) async -> Int32 {
        Builtins.install(into: .shared)
        var context = CommandContext()
        context.canOpenWindows = true
        return await run(arguments, context: context)
    }

    /// Runs the command in `context` (its registry is used as it is).
    /// - Parameter arguments: the arguments, without the program name.
    /// - Returns: the exit status (sysexits).
    @MainActor
    public static func run(_ arguments: [String], context: CommandContext) async -> Int32 {
        if let name = arguments.first, let subcommand = Subcommands.named(name) {
            do {
                return finish(try await subcommand.run(Array(arguments.dropFirst()), context: context), context: context)
            } catch {
                return finish(Termination.of(error), context: context)
            }
        }
        let invocation: Invocation
        do {
            invocation = try Invocation.parse(arguments)
        } catch {
            return finish(Termination.of(error), context: context)
        }
        // Activities read the host's environment from the registry, never from the process.
        context.registry.environment = HostEnvironment(variables: context.environment)
        let runner = Runner(invocation: invocation, context: context)
        do {
            return finish(try await runner.run(), context: context)
        } catch {
            let termination = Termination.of(error)
            if invocation.json, invocation.mode.printsResult {
                context.standardOutput.write(ShareResult(failure: error).json + "\n")
            }
            return finish(termination, context: context)
        }
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
        case .sheet, .activity: return true
        default: return false
        }
    }
}
