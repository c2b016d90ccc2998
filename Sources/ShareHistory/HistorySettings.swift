import Foundation
import ShareSheet
import ShareSheetSystem

/// `[history]` in the configuration file: whether shares are recorded, and for how long.
public struct HistorySettings: Sendable, Equatable {
    /// The configuration group.
    public static let group = "history"

    /// False when the person turned the history off: nothing is written, not even the file.
    public var enabled: Bool
    /// Entries older than this many days are dropped at each write.
    public var keepDays: Int

    /// On, for 90 days: what an empty configuration means.
    public static let `default` = HistorySettings(enabled: true, keepDays: 90)

    /// Describes settings.
    public init(enabled: Bool, keepDays: Int) {
        self.enabled = enabled
        self.keepDays = keepDays
    }

    /// The settings of `configuration`, each unset key at its default.
    /// - Throws: `ShareError(.configuration)` naming the file, the line and the key when
    ///   `enabled` is not a boolean or `keep-days` not a whole number of days (1 or more): a
    ///   share would otherwise keep what the person asked to drop.
    public init(configuration: Configuration) throws {
        self = .default
        if configuration.string("enabled", in: Self.group) != nil {
            guard let enabled = configuration.bool("enabled", in: Self.group) else {
                throw configuration.problem(with: "enabled", in: Self.group, "use true or false")
            }
            self.enabled = enabled
        }
        if let text = configuration.string("keep-days", in: Self.group) {
            guard let days = Int(text.trimmingCharacters(in: .whitespaces)), days >= 1 else {
                throw configuration.problem(with: "keep-days", in: Self.group, "use a whole number of days, 1 or more")
            }
            keepDays = days
        }
    }
}
