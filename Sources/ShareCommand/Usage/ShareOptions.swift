/// The options of `share` itself (not of a subcommand): what `Invocation.parse` accepts, and
/// what `--help`, the completions and the man page list.
enum ShareOptions {
    static let all: [OptionSpec] = [
        .value("--text", "TEXT", "share TEXT as an item (repeatable)", repeatable: true),
        .value("--activity", "NAME", "perform NAME without the sheet; on a terminal, asks only for what is missing", kind: .activity),
        .flag("--list", "list what would be offered, then what is not and why"),
        .value("--explain", "NAME", "explain why NAME is or is not offered for the items", kind: .activity),
        .value("--subject", "TEXT", "the subject, for activities that have one (mail)"),
        .value("--to", "ADDR[,ADDR]", "recipients, for activities that have them (repeatable)", repeatable: true),
        .value(
            "--set", "FIELD=VALUE", "fill a field of the activity's interface, or override a setting (repeatable)",
            kind: .settings, repeatable: true),
        .value("--exclude", "NAME[,NAME]", "never offer these activities (repeatable)", kind: .activity, repeatable: true),
        .value("--app", "ID", "open with this application (open-in; a desktop-file id)"),
        .flag("--json", "print one JSON object: the list, or the result"),
        .flag("--pretty", "with --json: indented, one member per line"),
        quiet,
        verbose,
        .flag("--gui", "show the sheet as a window (needs a display)"),
        .flag("--terminal", "show the sheet in this terminal, even on a desktop"),
        .flag("--via-service", "share through the share service on the session bus"),
        .flag("--service", "serve the sheet on the session bus (D-Bus activation runs this)"),
        .help,
        .flag("--version", "show the version"),
    ]

    /// `--quiet`, here and in the subcommands that show progress (`outbox flush`, `receive`).
    static let quiet = OptionSpec.flag("--quiet", "no progress lines on standard error")
    /// `--verbose`, here and in the subcommands that show progress.
    static let verbose = OptionSpec.flag("--verbose", "say on standard error what each step does")

    /// The options that take a value.
    static var valueOptions: [String] { all.filter { $0.value != nil }.map(\.name) }
    /// The options that do not.
    static var flagOptions: [String] { all.filter { $0.value == nil }.map(\.name) }

    /// The "Options:" lines of `share --help`.
    static var helpLines: String {
        all.map { option in
            CommandHelp.row((option.short.map { "\($0), " } ?? "") + option.usage, option.summary)
        }.joined() + CommandHelp.row("--", "end of options: the rest are ITEMs, even with a -")
    }
}
