import Foundation
import ShareSheet

/// How the command ends: its exit status and the one line it prints on standard error.
///
/// The one place where errors and outcomes become exit statuses (sysexits, SPEC §4).
struct Termination: Error, Equatable {
    /// The exit status.
    var status: Int32
    /// The line for standard error (without "share: "); nil prints nothing.
    var message: String?

    /// Done.
    static let success = Termination(status: 0, message: nil)

    /// The status of dismissing the sheet or cancelling the activity (128 + SIGINT).
    static let dismissedStatus = status(of: .cancelled)

    /// The sysexits status of each kind of failure (SPEC §4): the command's own mapping.
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
    static func of(_ error: any Error, activity: String? = nil) -> Termination {
        if let termination = error as? Termination { return termination }
        if let shareError = error as? ShareError {
            return Termination(status: status(of: shareError.kind), message: withoutPrefix(shareError.message))
        }
        let description = (error as NSError).localizedDescription
        let message = activity.map { "\($0): \(description)" } ?? description
        return Termination(status: status(of: .ioError), message: message)
    }

    /// How a presentation's outcome ends the command.
    /// - Parameters:
    ///   - title: the activity's title, for "did not complete".
    ///   - interfaceCancelled: true when the person cancelled the activity's interface.
    @MainActor
    static func of(_ outcome: ShareOutcome, title: String?, interfaceCancelled: Bool) -> Termination {
        if let error = outcome.error { return of(error, activity: title) }
        if outcome.completed { return .success }
        if outcome.activityType == nil || interfaceCancelled {
            return Termination(status: dismissedStatus, message: nil)
        }
        return Termination(status: 1, message: "\(title ?? outcome.activityType?.rawValue ?? "the activity") did not complete")
    }

    /// Messages are kept without the program name; ShareErrors raised here carry it.
    private static func withoutPrefix(_ message: String) -> String {
        message.hasPrefix("share: ") ? String(message.dropFirst("share: ".count)) : message
    }

    /// The line for standard error, with the program name.
    var line: String? { message.map { "share: \($0)\n" } }
}
