/// Where an activity's work goes on this machine, with this configuration: a fact a front end
/// turns into its own words (`share help mail`, `share --explain`). Beyond UIKit.
///
/// It says what the activity would do, not how to ask for something else: which option or
/// menu changes a setting is for each front end to say, from `settings`.
public struct ActivityRoute: Sendable, Equatable {
    /// What the activity does here, as a phrase without a subject: "sends through
    /// smtp.example.com:587 as ana@example.com", "no printer: saves a PDF into ~/Documents".
    public var summary: String
    /// True when this is the embedded default (an outbox, a PDF, a web page) because nothing
    /// better is configured or reachable.
    public var isFallback: Bool
    /// The configuration settings that would change the route, as `group`/`key` pairs
    /// (`mail`/`smtp`); empty when none does.
    public var settings: [Setting]

    /// A configuration setting named by its group and key.
    public struct Setting: Sendable, Equatable {
        /// The group of the configuration file (`mail`).
        public var group: String
        /// The key in that group (`smtp`).
        public var key: String

        /// Names `key` in `group`.
        public init(group: String, key: String) {
            self.group = group
            self.key = key
        }
    }

    /// Describes a route.
    public init(_ summary: String, isFallback: Bool = false, settings: [Setting] = []) {
        self.summary = summary
        self.isFallback = isFallback
        self.settings = settings
    }
}
