import ShareSheet
import ShareSheetSystem
import Sharing

/// What the command line asks for, before anything is read or looked up.
struct Invocation: Equatable {
    /// What the command does.
    enum Mode: Equatable {
        /// Shows the interactive sheet.
        case sheet
        /// Lists what would be offered.
        case list
        /// Explains why an activity is or is not offered.
        case explain(String)
        /// Performs one activity without the sheet.
        case activity(String)
        /// Prints the help.
        case help
        /// Prints the version.
        case version
        /// `--service`: serves the sheet on the session bus (SPEC §8) until idle.
        case service
    }

    /// Where the sheet is shown.
    enum SheetStyle: Equatable {
        /// A window when a display is available, else the terminal.
        case automatic
        /// `--gui`: the window.
        case window
        /// `--terminal`: the terminal.
        case terminal
    }

    var mode: Mode = .sheet
    var sheetStyle: SheetStyle = .automatic
    /// `--via-service`: the sheet or the activity runs in the share service, and this command
    /// is its client (a sandboxed terminal shares through the host).
    var viaService = false
    var json = false
    /// `--pretty`: what `--json` prints indented instead of on one line.
    var pretty = false

    /// How `--json` output is written; nil without `--json`.
    var jsonFormat: JSONOutput.Format? { json ? JSONOutput.Format(pretty: pretty) : nil }
    /// `--quiet`: no progress lines, even on a terminal.
    var quiet = false
    /// `--verbose`: each step said on standard error (items, activity, the backend's steps).
    var verbose = false
    /// The ITEM operands and `--text` values, in command-line order.
    var items: [ShareItemInput] = []
    var subject: String?
    var recipients: [String] = []
    var settings: [Setting] = []
    var exclusions: [String] = []
    /// `--app ID`: the application Open In uses, without asking.
    var application: String?

    /// `--to`, `--subject`, `--set` and `--app` as the share layer's presets.
    var presets: SharePresets {
        var settings = self.settings.map { (key: $0.field, value: $0.value) }
        if let application { settings.append((key: "app", value: application)) }
        return SharePresets(to: recipients, subject: subject, settings: settings)
    }

    /// A `--set FIELD=VALUE`.
    struct Setting: Equatable {
        var field: String
        var value: String
    }

    /// The options that take a value, and those that do not, for parsing and suggestions: the
    /// declaration `--help` is made from.
    static let valueOptions = ShareOptions.valueOptions
    static let flagOptions = ShareOptions.flagOptions

    /// Reads `arguments` (without the program name).
    /// - Throws: a `ShareError` of kind `.usage` naming the wrong option.
    static func parse(_ arguments: [String]) throws -> Invocation {
        var invocation = Invocation()
        var modeOption: String?
        var optionsEnded = false
        var index = 0

        func setMode(_ mode: Mode, option: String) throws {
            if let modeOption, modeOption != option {
                throw ShareError(.usage, "\(modeOption) and \(option) cannot be used together")
            }
            if modeOption == option { throw ShareError(.usage, "\(option) can be given only once") }
            modeOption = option
            invocation.mode = mode
        }

        var wantsHelp = false
        var wantsVersion = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "-" {
                invocation.items.append(.standardInput)
                continue
            }
            if optionsEnded || !argument.hasPrefix("-") {
                invocation.items.append(.operand(argument))
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var attached: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                attached = String(argument[argument.index(after: equals)...])
            }
            if name == "-h" { name = "--help" }

            if flagOptions.contains(name) {
                if attached != nil { throw ShareError(.usage, "\(name) takes no value") }
                switch name {
                case "--list": try setMode(.list, option: name)
                case "--json": invocation.json = true
                case "--pretty": invocation.pretty = true
                case "--quiet": invocation.quiet = true
                case "--verbose": invocation.verbose = true
                case "--service": try setMode(.service, option: name)
                case "--via-service": invocation.viaService = true
                case "--gui", "--terminal":
                    let style: SheetStyle = name == "--gui" ? .window : .terminal
                    if invocation.sheetStyle != .automatic, invocation.sheetStyle != style {
                        throw ShareError(.usage, "--gui and --terminal cannot be used together")
                    }
                    invocation.sheetStyle = style
                case "--help": wantsHelp = true
                default: wantsVersion = true
                }
                continue
            }
            guard valueOptions.contains(name) else {
                throw ShareError(.usage, "unknown option '\(name)'" + suggestion(for: name))
            }
            let value: String
            if let attached {
                value = attached
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw ShareError(.usage, "\(name) needs a value")
            }
            switch name {
            case "--text":
                invocation.items.append(.text(value))
            case "--activity":
                try setMode(.activity(value), option: name)
            case "--explain":
                try setMode(.explain(value), option: name)
            case "--subject":
                if invocation.subject != nil { throw ShareError(.usage, "--subject can be given only once") }
                invocation.subject = value
            case "--to":
                invocation.recipients += splitList(value)
            case "--exclude":
                invocation.exclusions += splitList(value)
            case "--app":
                if invocation.application != nil { throw ShareError(.usage, "--app can be given only once") }
                invocation.application = value
            default:
                guard let equals = value.firstIndex(of: "="), equals != value.startIndex else {
                    throw ShareError(.usage, "--set needs FIELD=VALUE, got '\(value)'")
                }
                invocation.settings.append(
                    Setting(field: String(value[..<equals]), value: String(value[value.index(after: equals)...])))
            }
        }
        if wantsHelp { invocation.mode = .help } else if wantsVersion { invocation.mode = .version }
        if invocation.json, invocation.mode.isExplain {
            throw ShareError(.usage, "--json works with --list, --activity or the sheet, not with --explain")
        }
        // `--pretty` indents whatever `--json` prints, the listing and a share's result alike.
        if invocation.pretty, !invocation.json, !wantsHelp, !wantsVersion {
            throw ShareError(.usage, "--pretty works only with --json")
        }
        return invocation
    }

    private static func splitList(_ value: String) -> [String] {
        value.split(separator: ",").map { String($0).trimmed }.filter { !$0.isEmpty }
    }

    private static func suggestion(for option: String) -> String {
        let close = Suggestions.closest(to: option, among: valueOptions + flagOptions)
        return close.isEmpty ? " (see share --help)" : " (did you mean \(Suggestions.phrase(close))?)"
    }
}

extension Invocation.Mode {
    var isExplain: Bool {
        if case .explain = self { return true }
        return false
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    var trimmed: String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
