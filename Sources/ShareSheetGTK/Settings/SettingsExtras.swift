/// What the settings window shows that the configuration file alone does not say, given by
/// its owner (the window knows no backend): the share targets installed and the posting
/// accounts.
public struct SettingsExtras: Sendable {
    /// An installed share target, as the person knows it.
    public struct Target: Sendable, Equatable {
        /// Its name in the configuration (the desktop id without `.desktop`).
        public var name: String
        /// Its title, as the sheet shows it.
        public var title: String

        public init(name: String, title: String) {
            self.name = name
            self.title = title
        }
    }

    /// The share targets installed, each turned on or off in the window.
    public var targets: [Target]

    /// The posting accounts; nil shows none.
    public var accounts: (any SettingsAccounts)?

    /// Extras; none by default.
    public init(targets: [Target] = [], accounts: (any SettingsAccounts)? = nil) {
        self.targets = targets
        self.accounts = accounts
    }
}
