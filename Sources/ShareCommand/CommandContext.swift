import Foundation
import ShareSheet
import ShareSheetTerminal

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
    /// Reads all of standard input (for the `-` item).
    public var readStandardInput: () throws -> Data
    /// Where the sheet reads picks and field values.
    public var lines: any LineSource
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

    /// Makes a context; the defaults are the process's own streams and environment.
    public init(
        registry: ActivityRegistry = .shared,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        currentDirectory: String = FileManager.default.currentDirectoryPath,
        readStandardInput: @escaping () throws -> Data = { try CommandContext.readAll(STDIN_FILENO) },
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

    /// Reads a descriptor to its end, retrying interrupted reads.
    public nonisolated static func readAll(_ descriptor: Int32) throws -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return data }
            if count < 0 {
                if errno == EINTR { continue }
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            data.append(contentsOf: buffer[0..<count])
        }
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
            redrawsInPlace: redraws, usesColor: redraws && allowsColor)
    }
}
