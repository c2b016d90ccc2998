import ShareSheet

/// The argument parsers without running anything, for the fuzz target `fuzz-arguments`.
package enum CommandLineParsers {
    /// What `share ARGUMENTS` was read as: how many items and recipients it names, or the error.
    package struct Reading: Sendable {
        package var items = 0
        package var recipients: [String] = []
        package var settingFields: [String] = []
        package var error: (any Error)?
    }

    /// Reads `arguments` as `share` reads its command line.
    package static func readShare(_ arguments: [String]) -> Reading {
        do {
            let invocation = try Invocation.parse(arguments)
            return Reading(
                items: invocation.items.count, recipients: invocation.recipients,
                settingFields: invocation.settings.map(\.field))
        } catch {
            return Reading(error: error)
        }
    }

    /// Reads `arguments` against the options of every subcommand and of each of its actions, as
    /// `share SUBCOMMAND [ACTION] ARGUMENTS` does; one outcome each: the operand count or the error.
    @MainActor
    package static func readSubcommands(_ arguments: [String]) -> [Result<Int, any Error>] {
        var results: [Result<Int, any Error>] = []
        for command in Subcommands.all {
            let spec = command.spec
            let optionLists = spec.actions.isEmpty ? [spec.options] : spec.actions.map(\.options)
            for options in optionLists {
                results.append(
                    Result { try ParsedOptions.parse(arguments, options: options, command: spec.name).operands.count })
            }
        }
        return results
    }
}
