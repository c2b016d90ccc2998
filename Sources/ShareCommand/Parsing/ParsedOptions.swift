import ShareSheet
import ShareSheetSystem

/// Arguments read against the options a command declares: flags, values, operands. An option
/// that is not declared is refused with the declared one it most looks like.
///
/// `share` itself and every subcommand are read by the same loop (`scan`): `share` hands each
/// option to the action its declaration carries (`ShareOption`), a subcommand collects them here.
struct ParsedOptions {
    private(set) var flags: Set<String> = []
    private(set) var values: [String: [String]] = [:]
    /// The operands, in order (`-` is one; everything after `--` is one).
    private(set) var operands: [String] = []
    /// True when `-h` or `--help` was given.
    private(set) var wantsHelp = false

    /// True when the flag `name` was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }
    /// The value of `name`, given once at most.
    func value(_ name: String) -> String? { values[name]?.last }
    /// Every value of a repeatable option, in order.
    func all(_ name: String) -> [String] { values[name] ?? [] }

    /// Reads `arguments` for `command` (`share outbox flush`, for messages).
    /// - Throws: a usage error naming the option: unknown (with the closest declared one),
    ///   missing its value, a value given to a flag, or given twice when it may be once.
    static func parse(_ arguments: [String], options: [OptionSpec], command: String) throws -> ParsedOptions {
        var parsed = ParsedOptions()
        try scan(arguments, options: options, command: command) { element in
            switch element {
            case .operand(let operand):
                parsed.operands.append(operand)
            case .option(let option, _) where option == .help:
                parsed.wantsHelp = true
            case .option(let option, nil):
                parsed.flags.insert(option.name)
            case .option(let option, let value?):
                parsed.values[option.name, default: []].append(value)
            }
        }
        return parsed
    }

    /// One thing a command line gives, in the order given.
    enum Element {
        /// A declared option, with its value when it takes one (nil for a flag).
        case option(OptionSpec, String?)
        /// An operand: a word that is not an option, `-`, or any word after `--`.
        case operand(String)
    }

    /// Reads `arguments` against `options` and hands each option and operand to `visit` in
    /// command-line order, so what `visit` throws is said for the first wrong argument.
    ///
    /// `--` ends the options; `--name=VALUE` is `--name VALUE`; `-h` and `--help` are help when
    /// `options` does not declare it (`share` does, with what it does).
    /// - Parameter command: the command, as messages name it (`outbox flush`); empty for `share`.
    /// - Throws: a usage error naming the option: unknown (with the closest declared one),
    ///   missing its value, a value given to a flag, or given twice when it may be once; or
    ///   what `visit` throws.
    static func scan(
        _ arguments: [String], options: [OptionSpec], command: String, _ visit: (Element) throws -> Void
    ) throws {
        let wording = Wording(command: command)
        var given: Set<String> = []
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                try visit(.operand(argument))
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var attached: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                attached = String(argument[argument.index(after: equals)...])
            }
            guard let option = options.first(where: { $0.name == name || ($0.short != nil && $0.short == name) }) else {
                if name == "-h" || name == OptionSpec.help.name {
                    try visit(.option(.help, nil))
                    continue
                }
                throw ShareError(.usage, wording.prefix + "unknown option '\(name)'" + wording.suggestion(for: name, among: options))
            }
            guard let placeholder = option.value else {
                if attached != nil { throw ShareError(.usage, wording.prefix + "\(option.name) takes no value") }
                try visit(.option(option, nil))
                continue
            }
            let value: String
            if let attached {
                value = attached
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw ShareError(.usage, wording.prefix + "\(option.name) needs a value" + wording.placeholder(placeholder))
            }
            if !option.repeatable, !given.insert(option.name).inserted {
                throw ShareError(.usage, wording.prefix + "\(option.name) can be given only once")
            }
            try visit(.option(option, value))
        }
    }

    /// How the messages read: `share` has always said them without a command and without the
    /// placeholder, a subcommand with both (`outbox flush: --set needs a value (FIELD=VALUE)`).
    private struct Wording {
        var command: String

        var prefix: String { command.isEmpty ? "" : "\(command): " }

        func placeholder(_ placeholder: String) -> String { command.isEmpty ? "" : " (\(placeholder))" }

        func suggestion(for name: String, among options: [OptionSpec]) -> String {
            var names = options.map(\.name)
            if !names.contains(OptionSpec.help.name) { names.append(OptionSpec.help.name) }
            let close = Suggestions.closest(to: name, among: names)
            let help = command.isEmpty ? "share --help" : "--help"
            return close.isEmpty ? " (see \(help))" : " (did you mean \(Suggestions.phrase(close))?)"
        }
    }
}
