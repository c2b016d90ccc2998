import Foundation
import ShareSheet
import Sharing

/// The one writer of everything the command prints as JSON (a share's result, `--list --json`,
/// `outbox list --json`, `paste --types --json`, `targets list --json`, `contacts list --json`…),
/// so they all come out the same way (`JSONStyle`: keys sorted): compact on one line by default,
/// indented with `--pretty`.
enum JSONOutput {
    /// How a listing is written: `--json`, and `--pretty` with it.
    struct Format: Equatable {
        /// True with `--pretty`: indented, one member per line.
        var pretty = false
    }

    /// `--json`, as every listing declares it.
    static let jsonOption = OptionSpec.flag("--json", "print the listing as JSON")
    /// `--pretty`, as every listing declares it beside `--json`.
    static let prettyOption = OptionSpec.flag("--pretty", "with --json: indented JSON")

    /// The format the options ask for: nil without `--json`.
    /// - Throws: a usage error for `--pretty` without `--json`, which would otherwise do nothing
    ///   and leave a script wondering why its output did not change.
    static func format(_ parsed: ParsedOptions, command: String) throws -> Format? {
        try format(json: parsed.flag("--json"), pretty: parsed.flag("--pretty"), command: command)
    }

    /// The format for `--json` and `--pretty` given or not; `command` names the command in the
    /// error (empty for `share` itself).
    static func format(json: Bool, pretty: Bool, command: String) throws -> Format? {
        if pretty, !json {
            throw ShareError(.usage, (command.isEmpty ? "" : command + ": ") + "--pretty works only with --json")
        }
        return json ? Format(pretty: pretty) : nil
    }

    /// `value` as JSON text in the one style (`JSONStyle`), without a final newline.
    static func text<Value: Encodable>(_ value: Value, format: Format) throws -> String {
        do {
            return try JSONStyle.text(value, pretty: format.pretty)
        } catch {
            throw ShareError(.ioError, "cannot write JSON: \(error.localizedDescription)")
        }
    }

    /// Writes `value` as JSON and a newline on the context's standard output.
    @MainActor
    static func write<Value: Encodable>(_ value: Value, format: Format, to context: CommandContext) throws {
        context.standardOutput.write(try text(value, format: format) + "\n")
    }
}
