/// A `share` subcommand that works on a local store or the desktop (`share outbox flush`,
/// `share paste`, `share open URL`). Each backend's lives in a file of its own in this folder and
/// is listed once in `Subcommands.all`.
@MainActor
protocol ShareSubcommand {
    /// The word after `share` (`outbox`).
    static var name: String { get }
    /// The usage lines for `share --help` (`share outbox list|show ID|flush`).
    static var usage: [String] { get }
    /// Runs with the arguments after the name.
    /// - Returns: how the command ends; throw a `ShareError` for a failure.
    static func run(_ arguments: [String], context: CommandContext) async throws -> Termination
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
    ]

    /// The subcommand named by the first argument, if any.
    static func named(_ name: String) -> (any ShareSubcommand.Type)? {
        all.first { $0.name == name }
    }
}
