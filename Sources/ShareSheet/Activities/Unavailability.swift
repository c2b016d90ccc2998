/// Why an activity is not offered for the items, as facts: the reason, and what would make the
/// activity available (which setting, what kind of fix, which file).
///
/// Words belong to the front end (SPEC §11): `reason` states the fact ("Flickr has no web share
/// page, so it needs an account") and never names a command line, an option or configuration
/// syntax. The `share` command adds its own advice from `setting` and `fix`
/// (`share accounts add flickr`), a window its plain sentence.
public struct Unavailability: Sendable, Equatable, CustomStringConvertible {
    /// Why the activity is not offered, as `unavailableReason(forActivityItems:)` says it.
    public var reason: String
    /// The setting that would make it available, when there is one (for an account: group
    /// `accounts`, the service as key).
    public var setting: ShareError.Setting?
    /// What kind of fix would make it available, when there is one.
    public var fix: ShareError.Fix?
    /// The file or folder that matters, when there is one.
    public var path: String?

    /// Says why an activity is not offered, and what would make it available.
    public init(_ reason: String, setting: ShareError.Setting? = nil, fix: ShareError.Fix? = nil, path: String? = nil) {
        self.reason = reason
        self.setting = setting
        self.fix = fix
        self.path = path
    }

    /// The facts of an error that keeps an activity from being offered: its message as the
    /// reason, its setting, fix and path.
    public init(_ error: ShareError) {
        self.init(error.message, setting: error.setting, fix: error.fix, path: error.path)
    }

    public var description: String { reason }
}
