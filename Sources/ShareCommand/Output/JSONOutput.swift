import Foundation
import ShareSheet

/// The one writer of every JSON listing (`--list --json`, `outbox list --json`, `paste --types
/// --json`, `targets list --json`…), so they all come out the same way: compact on one line by
/// default, indented with `--pretty`.
///
/// Keys are sorted in both forms: `JSONEncoder` on Linux otherwise writes an object's keys in
/// hash order, which changes from one run to the next and would make diffs and golden files
/// useless. Slashes stay unescaped, since MIME types and paths are full of them.
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

    /// `value` as JSON text, without a final newline.
    static func text<Value: Encodable>(_ value: Value, format: Format) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = format.pretty
            ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted] : [.sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
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
