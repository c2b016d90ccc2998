import ShareSheet
import ShareSheetSystem

/// Arguments read against the options a command declares: flags, values, operands. An option
/// that is not declared is refused with the declared one it most looks like.
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
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                parsed.operands.append(argument)
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
            if name == "-h" || name == "--help" {
                parsed.wantsHelp = true
                continue
            }
            guard let option = options.first(where: { $0.name == name || ($0.short != nil && $0.short == name) }) else {
                throw ShareError(.usage, "\(command): unknown option '\(name)'" + suggestion(for: name, among: options))
            }
            guard option.value != nil else {
                if attached != nil { throw ShareError(.usage, "\(command): \(option.name) takes no value") }
                parsed.flags.insert(option.name)
                continue
            }
            let value: String
            if let attached {
                value = attached
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw ShareError(.usage, "\(command): \(option.name) needs a value (\(option.value!))")
            }
            if !option.repeatable, parsed.values[option.name] != nil {
                throw ShareError(.usage, "\(command): \(option.name) can be given only once")
            }
            parsed.values[option.name, default: []].append(value)
        }
        return parsed
    }

    /// " (did you mean '--json'?)", or a pointer to the help.
    static func suggestion(for name: String, among options: [OptionSpec]) -> String {
        let close = Suggestions.closest(to: name, among: (options + [.help]).map(\.name))
        return close.isEmpty ? " (see --help)" : " (did you mean \(Suggestions.phrase(close))?)"
    }
}
