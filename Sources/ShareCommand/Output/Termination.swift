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

    /// The sysexits status of each kind of failure.
    static func status(of kind: ShareError.Kind) -> Int32 {
        switch kind {
        case .usage: return 64
        case .badData: return 65
        case .noInput: return 66
        case .unavailable: return 69
        case .ioError: return 74
        case .temporaryFailure: return 75
        case .configuration: return 78
        case .cancelled: return 130
        }
    }

    /// A `ShareError` ends with its kind's status; any other error is an I/O failure (74).
    static func of(_ error: any Error) -> Termination {
        if let termination = error as? Termination { return termination }
        return of(ShareResult.Failure(error))
    }

    /// How a failure ends the command.
    static func of(_ failure: ShareResult.Failure) -> Termination {
        Termination(status: status(of: failure.code), message: failure.code == .cancelled ? nil : failure.message)
    }

    /// How a share's result ends the command.
    /// - Parameter title: the activity's title, for "did not complete".
    static func of(_ result: ShareResult, title: String?) -> Termination {
        if let failure = result.error { return of(failure) }
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
