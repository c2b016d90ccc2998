import ShareSheet
import Sharing

/// `share completions bash|zsh|fish` and `share man-page`: the shell completions and the manual
/// page, made from the command's declarations with this build's activities and the installed
/// share targets.
enum CompletionsCommand: ShareSubcommand {
    static let spec = CommandSpec(
        name: "completions", summary: "print the completion script for a shell",
        about: "Load it in bash with: source <(share completions bash); in zsh, write it as _share into a "
            + "folder of $fpath; in fish, into ~/.config/fish/completions/share.fish.",
        operands: "bash|zsh|fish", operandKind: .choices(Completions.shells),
        examples: ["share completions bash > ~/.local/share/bash-completion/completions/share"])

    static func run(_ arguments: [String], context: CommandContext) async throws -> Termination {
        let parsed = try options(arguments)
        guard parsed.operands.count == 1, let shell = parsed.operands.first else {
            throw ShareError(.usage, "completions: name one shell: bash, zsh or fish")
        }
        guard Completions.shells.contains(shell) else {
            throw ShareError(.usage, "completions: no script for '\(shell)' (bash, zsh or fish)")
        }
        let host = ShareHost(registry: context.registry)
        // `--set` completes the picked activity's field ids and settings.
        let settingKeys = Dictionary(
            host.overviews().map { ($0.name.name, ShareHost.settingKeys(of: $0)) }, uniquingKeysWith: { first, _ in first })
        guard let script = Completions.script(for: shell, activityNames: host.names.all, settingKeys: settingKeys) else {
            throw ShareError(.usage, "completions: no script for '\(shell)' (bash, zsh or fish)")
        }
        context.standardOutput.write(script)
        return .success
    }
}

/// `share man-page`: the manual page in roff, as `make install` installs it.
enum ManPageCommand: ShareSubcommand {
    static let spec = CommandSpec(
        name: "man-page", summary: "print the manual page (roff), as make install installs it",
        examples: ["share man-page | man -l -"])

    static func run(_ arguments: [String], context: CommandContext) async throws -> Termination {
        let parsed = try options(arguments)
        if let extra = parsed.operands.first { throw ShareError(.usage, "man-page: unexpected argument '\(extra)'") }
        context.standardOutput.write(ManPage.text(activityNames: ActivityNames(registry: context.registry).all))
        return .success
    }
}
