/// An error a person can act on: what kind of failure it is, a one-line message, and the one
/// command or key that fixes it when there is one.
///
/// Backends throw their own errors; the layer that knows what they mean wraps them in a
/// `ShareError` so that every front end reports them the same way. The kind says what went
/// wrong, not how a program ends: only the `share` command turns kinds into exit statuses.
public struct ShareError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is. The raw values are the `code` of a share result.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// The caller used the API or command wrongly.
        case usage
        /// An item's content is not what it claims to be or cannot be used.
        case badData = "bad-data"
        /// An item is missing or cannot be read.
        case noInput = "no-input"
        /// No activity can do this for these items (now or in this build).
        case unavailable
        /// Reading or writing failed.
        case ioError = "io-error"
        /// Failed for now; the work is kept and can be retried.
        case temporaryFailure = "temporary-failure"
        /// The configuration is wrong: a bad key or value, a token for the wrong server.
        case configuration
        /// The person dismissed the sheet or cancelled the activity.
        case cancelled
    }

    /// The kind of failure.
    public var kind: Kind
    /// A one-line message that names the item or service and the reason, without a program name.
    public var message: String
    /// The one command or configuration key that fixes it, when there is one.
    public var hint: String?
    /// The interface field whose value only a person can give and that the activity found
    /// missing or wrong only while it ran (the PIN a LocalSend receiver asks for): a front end
    /// with a person at it may ask for it and share again with it set.
    public var field: String?

    /// Makes an error of the given kind.
    public init(_ kind: Kind, _ message: String, hint: String? = nil, field: String? = nil) {
        self.kind = kind
        self.message = message
        self.hint = hint
        self.field = field
    }

    public var description: String { message }
}
