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
        /// Picks a suggestion by its id without the sheet (`--suggestion mail:ana@example.com`).
        case suggestion(String)
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
    /// `--only N,…`: the items that go, by position from 1, as typed; nil for all.
    var only: String?
    /// `--size`: the size photos go at; nil for the activity's default.
    var imageSize: ImageSize?
    /// `--keep-location`: photos keep their location and camera data even when they leave.
    var keepsLocation = false

    /// What `--only`, `--size` and `--keep-location` choose, for `count` items.
    /// - Throws: a usage error naming an `--only` position that is not one of the items.
    func choices(forItemCount count: Int) throws -> ItemChoices {
        var choices = ItemChoices(imageSize: imageSize, keepsLocation: keepsLocation ? true : nil)
        if let only {
            do {
                choices.leftOut = try ItemSelection.leftOut(keeping: only, of: count)
            } catch let error as ShareError {
                throw ShareError(.usage, "--only: " + error.message)
            }
        }
        return choices
    }

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

    /// Reads `arguments` (without the program name) with the options `ShareOptions` declares,
    /// each handed to its own action in command-line order.
    /// - Throws: a `ShareError` of kind `.usage` naming the wrong option.
    static func parse(_ arguments: [String]) throws -> Invocation {
        var reading = Reading()
        let options = ShareOptions.declared
        try ParsedOptions.scan(arguments, options: options.map(\.spec), command: "") { element in
            switch element {
            case .operand(let operand):
                reading.invocation.items.append(operand == "-" ? .standardInput : .operand(operand))
            case .option(let spec, let value):
                // `scan` hands over only the options it was given, so there is always one.
                guard let option = options.first(where: { $0.spec == spec }) else {
                    preconditionFailure("\(spec.name) was read but is not a declared option of share")
                }
                try option.apply(value, to: &reading)
            }
        }
        return try reading.finished()
    }

    /// An invocation while its command line is read: what each option's action changes.
    struct Reading {
        var invocation = Invocation()
        /// The option that chose the mode so far (`--list`), for the message when two do.
        private(set) var modeOption: String?
        /// `-h`, `--help`: the help, whatever else is given.
        var wantsHelp = false
        /// `--version`: the version, whatever else is given but `--help`.
        var wantsVersion = false

        /// `--list`, `--explain`, `--activity` and `--service`: one of them, once.
        mutating func setMode(_ mode: Mode, option: String) throws {
            if let modeOption, modeOption != option {
                throw ShareError(.usage, "\(modeOption) and \(option) cannot be used together")
            }
            if modeOption == option { throw ShareError(.usage, "\(option) can be given only once") }
            modeOption = option
            invocation.mode = mode
        }

        /// `--gui` or `--terminal`, not both.
        mutating func setSheetStyle(_ style: SheetStyle) throws {
            if invocation.sheetStyle != .automatic, invocation.sheetStyle != style {
                throw ShareError(.usage, "--gui and --terminal cannot be used together")
            }
            invocation.sheetStyle = style
        }

        /// The invocation, once every option is read.
        /// - Throws: a usage error for options that do not go together.
        func finished() throws -> Invocation {
            var invocation = invocation
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
    }

    /// The names of a comma-separated list (`--to a,b`), trimmed, without empty ones.
    static func splitList(_ value: String) -> [String] {
        value.split(separator: ",").map { String($0).trimmed }.filter { !$0.isEmpty }
    }
}

extension Invocation.Setting {
    /// Reads `FIELD=VALUE`.
    /// - Throws: a usage error when there is no `=` or no field before it.
    init(parsing text: String) throws {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw ShareError(.usage, "--set needs FIELD=VALUE, got '\(text)'")
        }
        self.init(field: String(text[..<equals]), value: String(text[text.index(after: equals)...]))
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
