/// A `share` subcommand that works on a local store or the desktop (`share outbox flush`,
/// `share paste`, `share open URL`). Each backend's lives in a file of its own in this folder and
/// is listed once in `Subcommands.all`.
@MainActor
protocol ShareSubcommand {
    /// What it takes: its help, completions and man page section are made from this.
    static var spec: CommandSpec { get }
    /// Runs with the arguments after the name (`--help` is answered before this is called).
    /// - Returns: how the command ends; throw a `ShareError` for a failure.
    static func run(_ arguments: [String], context: CommandContext) async throws -> Termination
}

extension ShareSubcommand {
    /// The word after `share` (`outbox`).
    static var name: String { spec.name }

    /// Reads the arguments after the action word against the action's declared options.
    static func options(_ arguments: [String], for action: ActionSpec) throws -> ParsedOptions {
        try ParsedOptions.parse(arguments, options: action.options, command: "\(name) \(action.name)")
    }

    /// Reads the arguments of a command without actions against its declared options.
    static func options(_ arguments: [String]) throws -> ParsedOptions {
        try ParsedOptions.parse(arguments, options: spec.options, command: name)
    }
}

/// The subcommands of this build.
@MainActor
enum Subcommands {
    /// Every subcommand this build has, one line per backend.
    static let all: [any ShareSubcommand.Type] = [
        OpenCommand.self,
        ReadingListCommand.self,
        ContactsCommand.self,
        OutboxCommand.self,
        PasteCommand.self,
        AccountsCommand.self,
        ReceiveCommand.self,
        TargetsCommand.self,
        HistoryCommand.self,
        DevicesCommand.self,
        SettingsCommand.self,
        SuggestionsCommand.self,
        CompletionsCommand.self,
        ManPageCommand.self,
    ]

    /// The subcommand named by the first argument, if any.
    static func named(_ name: String) -> (any ShareSubcommand.Type)? {
        all.first { $0.name == name }
    }

    /// Every subcommand's declaration.
    static var specs: [CommandSpec] { all.map { $0.spec } }
}
