/// What the settings window shows that the configuration file alone does not say, given by
/// its owner (the window knows no backend): the share targets installed, the posting accounts
/// and the printers.
public struct SettingsExtras: Sendable {
    /// A printer the scheduler lists.
    public struct Printer: Sendable, Equatable {
        /// Its queue name, what the configuration holds.
        public var name: String
        /// Its description, when it has one ("Office laser").
        public var title: String?
        /// The desktop's default printer.
        public var isDefault: Bool

        public init(name: String, title: String?, isDefault: Bool) {
            self.name = name
            self.title = title
            self.isDefault = isDefault
        }
    }

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

    /// Asked when the settings window opens (the scheduler is not asked at every share): the
    /// printers to choose the default among; empty (no scheduler answered, or none asked) shows
    /// a field to type a queue's name instead.
    public var printers: @Sendable () -> [Printer]

    /// Extras; none by default.
    public init(
        targets: [Target] = [], accounts: (any SettingsAccounts)? = nil, printers: @escaping @Sendable () -> [Printer] = { [] }
    ) {
        self.targets = targets
        self.accounts = accounts
        self.printers = printers
    }
}
