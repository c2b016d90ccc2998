import ShareSheet
import ShareSheetSystem

/// The one declaration of what the command and each subcommand take. Parsing, `--help`, the
/// shell completions and the man page are all made from it, so none of them can drift from
/// what the command really accepts.
struct CommandSpec: Sendable {
    /// The word after `share` (`outbox`); empty for `share` itself.
    var name: String
    /// One line: what the command is for.
    var summary: String
    /// A paragraph for `--help` and the man page; empty for none.
    var about = ""
    /// The action words (`list`, `show ID`); empty when the command takes none.
    var actions: [ActionSpec] = []
    /// The options of a command without actions.
    var options: [OptionSpec] = []
    /// The operands of a command without actions (`URL|FILE...`).
    var operands = ""
    /// What the operands are, for completion.
    var operandKind: ValueKind = .none
    /// Command lines shown under "Examples:", each with what it does after two spaces.
    var examples: [String] = []

    /// The action named `word`.
    /// - Throws: a usage error listing the actions, with the closest when `word` looks mistyped.
    func action(named word: String?) throws -> ActionSpec {
        let names = actions.map(\.name)
        guard let word else {
            throw ShareError(.usage, "\(name): give an action: \(Self.list(names)) (share \(name) --help)")
        }
        if let action = actions.first(where: { $0.name == word }) { return action }
        let close = Suggestions.closest(to: word, among: names)
        let hint = close.isEmpty ? Self.list(names) : "did you mean \(Suggestions.phrase(close))?"
        throw ShareError(.usage, "\(name): unknown action '\(word)' (\(hint))")
    }

    /// "a, b or c".
    static func list(_ words: [String]) -> String {
        words.count > 1 ? words.dropLast().joined(separator: ", ") + " or " + words.last! : words.first ?? ""
    }

    /// Every option the command or any of its actions takes, each once.
    var allOptions: [OptionSpec] {
        var seen = Set<String>()
        return (options + actions.flatMap(\.options)).filter { seen.insert($0.name).inserted }
    }
}

/// One action of a subcommand: `share outbox show ID`.
struct ActionSpec: Sendable {
    var name: String
    /// Its operands as the usage line shows them (`ID`, `URL...`, `FILE|-`).
    var operands = ""
    var operandKind: ValueKind = .none
    /// What it does, in one line.
    var summary: String
    var options: [OptionSpec] = []
}

/// One option: `--format FORMAT`, `--json`, `-h`/`--help`.
struct OptionSpec: Sendable, Equatable {
    /// The long name, with its dashes.
    var name: String
    /// The value's placeholder (`FILE`); nil for a flag.
    var value: String?
    /// What it does, in one line.
    var summary: String
    /// What its value is, for completion.
    var kind: ValueKind = .none
    /// True when it may be given more than once.
    var repeatable = false
    /// A one-letter form (`-h`).
    var short: String?

    /// A flag.
    static func flag(_ name: String, _ summary: String, short: String? = nil) -> OptionSpec {
        OptionSpec(name: name, value: nil, summary: summary, short: short)
    }

    /// An option with a value.
    static func value(
        _ name: String, _ placeholder: String, _ summary: String, kind: ValueKind = .none, repeatable: Bool = false
    ) -> OptionSpec {
        OptionSpec(name: name, value: placeholder, summary: summary, kind: kind, repeatable: repeatable)
    }

    /// `--format FORMAT` as the usage shows it.
    var usage: String { value.map { "\(name) \($0)" } ?? name }

    /// `-h`/`--help`, which every command takes.
    static let help = OptionSpec.flag("--help", "show this help", short: "-h")
}

/// What a value or operand is, so a shell completes it.
enum ValueKind: Sendable, Equatable {
    case none
    case file
    case directory
    case activity
    case choices([String])
    /// A `KEY=VALUE` of the activity named by `--activity` (its settings and field ids).
    case settings
}
