/// An error a person can act on, with the kind of failure that decides the exit status.
///
/// Backends throw their own errors; the layer that knows what they mean wraps them in a
/// `ShareError` so that every presenter and the command line report them the same way.
public struct ShareError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is. Raw values are the `sysexits` codes the CLI uses.
    public enum Kind: Int32, Sendable {
        /// The caller used the API or command wrongly.
        case usage = 64
        /// An item's content is not what it claims to be or cannot be used.
        case badData = 65
        /// An item is missing or cannot be read.
        case noInput = 66
        /// No activity can do this for these items (now or in this build).
        case unavailable = 69
        /// Reading or writing failed.
        case ioError = 74
        /// Failed for now; the work is kept and can be retried.
        case temporaryFailure = 75
        /// The person dismissed the sheet or cancelled the activity.
        case cancelled = 130
    }

    /// The kind of failure.
    public var kind: Kind
    /// A one-line message that names the item or service and the reason.
    public var message: String

    /// Makes an error of the given kind.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
