/// The posting accounts the settings window lists, adds and removes. Its owner implements it
/// over the account store (the window knows no backend); every sentence it returns or throws
/// is for a person, with no option or configuration syntax.
public protocol SettingsAccounts: Sendable {
    /// Every service an account can be added for, in the order shown.
    func accounts() -> [SettingsAccount]
    /// Checks `token` and keeps it for the service `id` (with `instance` where the service
    /// asks for one). Runs off the main actor: a check may ask the service's server.
    /// - Returns: what was done, as a sentence.
    /// - Throws: `SettingsAccountProblem` saying why nothing was kept.
    func add(_ id: String, token: String, instance: String?) async throws -> String
    /// Forgets the service's token wherever it is kept.
    /// - Throws: `SettingsAccountProblem` saying why it could not.
    func remove(_ id: String) async throws
}

/// One service's account, as the settings window shows it.
public struct SettingsAccount: Sendable, Equatable {
    /// The service's id (`mastodon`).
    public var id: String
    /// Its name as people know it (`Mastodon`).
    public var title: String
    /// True when an account is kept for it.
    public var isAdded: Bool
    /// True when adding one asks for the server it lives on (a Mastodon instance).
    public var asksForInstance: Bool
    /// The server set up already, to fill the field with.
    public var instance: String?

    public init(id: String, title: String, isAdded: Bool, asksForInstance: Bool = false, instance: String? = nil) {
        self.id = id
        self.title = title
        self.isAdded = isAdded
        self.asksForInstance = asksForInstance
        self.instance = instance
    }
}

/// Why an account could not be added or removed, in a sentence for a person.
public struct SettingsAccountProblem: Error, Sendable {
    public var sentence: String
    public init(_ sentence: String) { self.sentence = sentence }
}
