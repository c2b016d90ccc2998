import ShareSheet

/// The options of `share` itself (not of a subcommand), each declared once with what it does:
/// `Invocation.parse` reads the command line with these declarations and hands every option to
/// its own action, and `--help`, the completions and the man page list them.
enum ShareOptions {
    /// Every option of `share`, in the order `--help` and the man page show them.
    static let declared: [ShareOption] = [
        .value("--text", "TEXT", "share TEXT as an item (repeatable)", repeatable: true) { reading, text in
            reading.invocation.items.append(.text(text))
        },
        .mode("--activity", "NAME", "perform NAME without the sheet; on a terminal, asks only for what is missing", kind: .activity) {
            .activity($0)
        },
        .mode("--suggestion", "ID", "pick the suggestion ID without the sheet (share suggestions ITEM... lists them)") {
            .suggestion($0)
        },
        .mode("--list", "list what would be offered, then what is not and why", .list),
        .mode("--explain", "NAME", "explain why NAME is or is not offered for the items", kind: .activity) { .explain($0) },
        .value("--subject", "TEXT", "the subject, for activities that have one (mail)") { reading, subject in
            reading.invocation.subject = subject
        },
        .value("--to", "ADDR[,ADDR]", "recipients, for activities that have them (repeatable)", repeatable: true) {
            reading, list in
            reading.invocation.recipients += Invocation.splitList(list)
        },
        .value(
            "--set", "FIELD=VALUE", "fill a field of the activity's interface, or override a setting (repeatable)",
            kind: .settings, repeatable: true
        ) { reading, setting in
            reading.invocation.settings.append(try Invocation.Setting(parsing: setting))
        },
        .value("--exclude", "NAME[,NAME]", "never offer these activities (repeatable)", kind: .activity, repeatable: true) {
            reading, list in
            reading.invocation.exclusions += Invocation.splitList(list)
        },
        .value("--app", "ID", "open with this application (open-in; a desktop-file id)") { reading, application in
            reading.invocation.application = application
        },
        .value("--only", "N[,N]", "send only these items, by position from 1 (1,3 or 2-4)") { reading, list in
            reading.invocation.only = list
        },
        .value("--size", "SIZE", "photos go at original, large (2048 px), medium (1024) or small (640)") { reading, name in
            guard let size = ImageSize(named: name) else {
                throw ShareError(.usage, "--size takes original, large, medium or small, not '\(name)'")
            }
            reading.invocation.imageSize = size
        },
        .flag("--keep-location", "photos that leave this computer keep their location and camera serial") {
            $0.invocation.keepsLocation = true
        },
        .flag("--json", "print one JSON object: the list, or the result") { $0.invocation.json = true },
        .flag("--pretty", "with --json: indented, one member per line") { $0.invocation.pretty = true },
        ShareOption(quiet) { $0.invocation.quiet = true },
        ShareOption(verbose) { $0.invocation.verbose = true },
        .flag("--gui", "show the sheet as a window (needs a display)") { try $0.setSheetStyle(.window) },
        .flag("--terminal", "show the sheet in this terminal, even on a desktop") { try $0.setSheetStyle(.terminal) },
        .flag("--via-service", "share through the share service on the session bus") { $0.invocation.viaService = true },
        .mode("--service", "serve the sheet on the session bus (D-Bus activation runs this)", .service),
        ShareOption(.help) { $0.wantsHelp = true },
        .flag("--version", "show the version") { $0.wantsVersion = true },
    ]

    /// The declarations alone, for `--help`, the completions and the man page.
    static let all: [OptionSpec] = declared.map(\.spec)

    /// `--quiet`, here and in the subcommands that show progress (`outbox flush`, `receive`).
    static let quiet = OptionSpec.flag("--quiet", "no progress lines on standard error")
    /// `--verbose`, here and in the subcommands that show progress.
    static let verbose = OptionSpec.flag("--verbose", "say on standard error what each step does")

    /// The "Options:" lines of `share --help`.
    static var helpLines: String {
        all.map { option in
            CommandHelp.row((option.short.map { "\($0), " } ?? "") + option.usage, option.summary)
        }.joined() + CommandHelp.row("--", "end of options: the rest are ITEMs, even with a -")
    }
}

/// One option of `share`: its declaration and what it does to the invocation being read. The
/// action is part of the declaration, so an option cannot be declared without one, and no
/// option can fall through to another's (before, a flag without its own `case` was taken for
/// `--version`).
struct ShareOption: Sendable {
    /// The name, value and summary, as `--help` shows them.
    let spec: OptionSpec
    /// What the option does, given its value (nil for a flag).
    private let action: @Sendable (inout Invocation.Reading, String?) throws -> Void

    /// A flag declared elsewhere too (`--quiet`, `--help`), and what it does.
    init(_ spec: OptionSpec, _ action: @escaping @Sendable (inout Invocation.Reading) throws -> Void) {
        precondition(spec.value == nil, "\(spec.name) takes a value: declare it with ShareOption.value")
        self.spec = spec
        self.action = { reading, _ in try action(&reading) }
    }

    private init(spec: OptionSpec, action: @escaping @Sendable (inout Invocation.Reading, String) throws -> Void) {
        self.spec = spec
        self.action = { reading, value in try action(&reading, value ?? "") }
    }

    /// A flag, and what it does.
    static func flag(
        _ name: String, _ summary: String, _ action: @escaping @Sendable (inout Invocation.Reading) throws -> Void
    ) -> ShareOption {
        ShareOption(.flag(name, summary), action)
    }

    /// An option with a value, and what it does with the value.
    static func value(
        _ name: String, _ placeholder: String, _ summary: String, kind: ValueKind = .none, repeatable: Bool = false,
        _ action: @escaping @Sendable (inout Invocation.Reading, String) throws -> Void
    ) -> ShareOption {
        ShareOption(
            spec: .value(name, placeholder, summary, kind: kind, repeatable: repeatable), action: action)
    }

    /// A flag that chooses what the command does (`--list`); one such option at most.
    static func mode(_ name: String, _ summary: String, _ mode: Invocation.Mode) -> ShareOption {
        flag(name, summary) { try $0.setMode(mode, option: name) }
    }

    /// An option whose value chooses what the command does (`--activity NAME`); one such option at most.
    static func mode(
        _ name: String, _ placeholder: String, _ summary: String, kind: ValueKind = .none,
        _ mode: @escaping @Sendable (String) -> Invocation.Mode
    ) -> ShareOption {
        value(name, placeholder, summary, kind: kind) { try $0.setMode(mode($1), option: name) }
    }

    /// Does what the option does to `reading`.
    func apply(_ value: String?, to reading: inout Invocation.Reading) throws {
        try action(&reading, value)
    }
}
