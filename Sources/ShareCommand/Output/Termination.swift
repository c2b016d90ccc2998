import Foundation
import ShareSheet
import Sharing

/// How the command ends: its exit status and the one line it prints on standard error.
///
/// The one place where errors and results become exit statuses (sysexits, SPEC §4), and where
/// the program's name goes in front of what it says.
struct Termination: Error, Equatable {
    /// The exit status.
    var status: Int32
    /// The line for standard error (without "share: "); nil prints nothing.
    var message: String?

    /// Done.
    static let success = Termination(status: 0, message: nil)

    /// The status of dismissing the sheet or cancelling the activity (128 + SIGINT).
    static let dismissedStatus = status(of: .cancelled)

    /// The sysexits status of each kind of failure (from `ExitStatuses`, the table `--help` prints).
    static func status(of kind: ShareError.Kind) -> Int32 { ExitStatuses.status(of: kind) }

    /// A `ShareError` ends with its kind's status; any other error is an I/O failure (74).
    static func of(_ error: any Error) -> Termination {
        if let termination = error as? Termination { return termination }
        return of(ShareResult.Failure(error))
    }

    /// How a failure ends the command.
    static func of(_ failure: ShareResult.Failure) -> Termination {
        Termination(status: status(of: failure.code), message: failure.code == .cancelled ? nil : CommandWords.line(failure))
    }

    /// How a share's result ends the command.
    /// - Parameter title: the activity's title, for "did not complete".
    static func of(_ result: ShareResult, title: String?) -> Termination {
        if let failure = result.error { return of(failure) }
        // Kept for later (the outbox): not done yet, which sysexits calls a temporary failure.
        // The fallback already said why and how it goes on.
        if result.disposition == .queued { return Termination(status: status(of: .temporaryFailure), message: nil) }
        if result.completed { return .success }
        if result.disposition == .cancelled { return Termination(status: dismissedStatus, message: nil) }
        return Termination(status: 1, message: "\(title ?? result.activity ?? "the activity") did not complete")
    }

    /// The line for standard error, with the program name.
    var line: String? { message.map(Self.prefixed) }

    /// A line as the command says it on standard error: "share: …" and a newline. Always one
    /// line: a line break inside (a file name holding one, named by whichever backend failed)
    /// is shown escaped, like every control character (`FileNames.shown`).
    static func prefixed(_ message: String) -> String { "share: \(FileNames.shown(message))\n" }
}
