import Foundation
import ShareSheet
import ShareSheetTerminal
import Sharing

/// Everything the command touches outside itself: the registry, the standard streams, the
/// environment. `ShareCommand.main` uses the process's own; tests pass their own.
@MainActor
public struct CommandContext {
    /// Where the built-in activities come from.
    public var registry: ActivityRegistry
    /// The environment (`NO_COLOR`, `COLUMNS`, `TERM`).
    public var environment: [String: String]
    /// Where relative paths start.
    public var currentDirectory: String
    /// Reads all of standard input (for subcommands that read a token or a list from it).
    public var readStandardInput: @Sendable () throws -> Data
    /// The descriptor the `-` item is spooled from: standard input.
    public var standardInputDescriptor: Int32 = STDIN_FILENO
    /// Where the sheet reads picks and field values.
    public var lines: any LineSource
    /// Where the sheet reads arrow keys when standard input and output are a terminal; nil
    /// keeps the numbered pick.
    public var keys: (any KeySource)?
    /// Where fields are read with line editing when standard input and output are a terminal;
    /// nil reads them from `lines`.
    public var lineEditor: (any PromptingLineSource)?
    /// Standard output.
    public var standardOutput: any TextOutput
    /// Standard error.
    public var standardError: any TextOutput
    /// True when standard input is a terminal; without one the command never prompts.
    public var standardInputIsTerminal: Bool
    /// True when standard output is a terminal.
    public var standardOutputIsTerminal: Bool
    /// True when standard error is a terminal; progress is shown only then.
    public var standardErrorIsTerminal: Bool
    /// True when Ctrl-C should dismiss the controller instead of ending the process.
    public var catchesInterrupts: Bool
    /// True when the command runs inside `GLibMainLoop` (the `share` program), so the sheet can
    /// be a window; callers that run the command in their own process leave it false and get
    /// the terminal sheet.
    public var canOpenWindows = false
    /// The terminal the process was started from, which the sheet reads once standard input
    /// has been read as an item (`share -`); nil for callers that run the command in their own
    /// process, whose standard input stays theirs.
    var controllingTerminal: ControllingTerminal?
    /// How to show arguments the command was handed in place of another (`RawArguments`' links
    /// for file names that are not UTF-8): each shown as the name that was typed.
    public var argumentLabels: [String: String] = [:]

    /// Makes a context; the defaults are the process's own streams and environment.
    public init(
        registry: ActivityRegistry = .shared,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        currentDirectory: String = FileManager.default.currentDirectoryPath,
        readStandardInput: @escaping @Sendable () throws -> Data = { try DescriptorReader.readAll(STDIN_FILENO) },
        lines: any LineSource = FileDescriptorLineSource(descriptor: STDIN_FILENO),
        standardOutput: any TextOutput = FileDescriptorOutput.standardOutput,
        standardError: any TextOutput = FileDescriptorOutput.standardError,
        standardInputIsTerminal: Bool = isatty(STDIN_FILENO) == 1,
        standardOutputIsTerminal: Bool = isatty(STDOUT_FILENO) == 1,
        standardErrorIsTerminal: Bool = isatty(STDERR_FILENO) == 1,
        catchesInterrupts: Bool = true
    ) {
        self.registry = registry
        self.environment = environment
        self.currentDirectory = currentDirectory
        self.readStandardInput = readStandardInput
        self.lines = lines
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.standardInputIsTerminal = standardInputIsTerminal
        self.standardOutputIsTerminal = standardOutputIsTerminal
        self.standardErrorIsTerminal = standardErrorIsTerminal
        self.catchesInterrupts = catchesInterrupts
    }

    /// Says `message` on standard error, as a line of the command's own.
    func warn(_ message: String) {
        standardError.write(Termination.prefixed(message))
    }

    /// True when colors are allowed: `NO_COLOR` is unset or empty and `TERM` is not `dumb`.
    var allowsColor: Bool {
        (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    /// The style for a stream that is or is not a terminal.
    func style(forTerminal isTerminal: Bool, descriptor: Int32) -> TerminalStyle {
        let redraws = isTerminal && environment["TERM"] != "dumb"
        return TerminalStyle(
            width: TerminalStyle.columns(descriptor: descriptor, environment: environment),
            redrawsInPlace: redraws, usesColor: redraws && allowsColor,
            rows: redraws ? TerminalStyle.rows(descriptor: descriptor, environment: environment) : nil)
    }
}
