/// An error a person can act on: what kind of failure it is, a one-line message that states the
/// facts, and what would fix it as facts too: which setting, what kind of fix, which file.
///
/// Backends throw their own errors; the layer that knows what they mean wraps them in a
/// `ShareError` so that every front end reports them the same way. The kind says what went
/// wrong, not how a program ends: only the `share` command turns kinds into exit statuses.
///
/// Words belong to the front end (SPEC §11): the message names the item or service and the
/// reason, never a command line, a command-line option or configuration-file syntax. The
/// `share` command words `setting` and `fix` as its options and configuration keys, a window as
/// a plain sentence, the service as `error-setting` and `error-hint`.
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

    /// A setting a front end can name: a configuration group and key (`mail`, `smtp`), or an
    /// interface field's id alone (`pin`).
    public struct Setting: Sendable, Hashable, Codable, CustomStringConvertible {
        /// The configuration group (`mail`), or nil for a field or preset given with the share.
        public var group: String?
        /// The key in the group, or the field's id.
        public var key: String
        /// Names a setting.
        public init(group: String? = nil, _ key: String) {
            self.group = group
            self.key = key
        }

        /// The wire form: `group.key`, or the key alone (`mail.smtp`, `pin`).
        public var description: String { group.map { "\($0).\(key)" } ?? key }

        /// The setting a wire form names (`mail.smtp`).
        public init(wire: String) {
            if let dot = wire.firstIndex(of: ".") {
                self.init(group: String(wire[..<dot]), String(wire[wire.index(after: dot)...]))
            } else {
                self.init(wire)
            }
        }

        // Coded as its wire form (`"mail.smtp"`), as the JSON result and the D-Bus keys say it.
        public init(from decoder: any Decoder) throws {
            self.init(wire: try decoder.singleValueContainer().decode(String.self))
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(description)
        }
    }

    /// What kind of fix a person can make, for a front end to word as its own option, key,
    /// button or sentence. The raw values are the `fix` of a share result.
    public enum Fix: String, Sendable, Codable, CaseIterable {
        /// Give the mail server (`setting`: `mail.smtp`).
        case configureMailServer = "configure-mail-server"
        /// Choose how mail is secured when the server offers no TLS (`setting`: `mail.starttls`).
        case chooseMailSecurity = "choose-mail-security"
        /// Give the sender's address (`setting`: `mail.from`).
        case setSender = "set-sender"
        /// Set up a way for text messages to leave (`setting`: `message.via`).
        case configureMessaging = "configure-messaging"
        /// Add a printer to the print system, then choose it (`setting`: `print.printer`).
        case addPrinter = "add-printer"
        /// Choose one of several printers (`setting`: `print.printer`).
        case choosePrinter = "choose-printer"
        /// Add an account for a service (`setting`: group `accounts`, the service as key).
        case addAccount = "add-account"
        /// Make a file readable by its owner only (`path`).
        case protectFile = "protect-file"
        /// Give the PIN the receiving device asks for (`field`: `pin`).
        case givePin = "give-pin"
        /// Choose the device to send to (`field`: `to`).
        case chooseDevice = "choose-device"
        /// Choose the application to open with (`field`: `app`).
        case chooseApplication = "choose-application"
        /// Send what waits in the outbox once the cause is fixed.
        case flushOutbox = "flush-outbox"
        /// Share without a window, in the terminal.
        case useTerminal = "use-terminal"
        /// Use one of the names this build has for an activity.
        case chooseActivity = "choose-activity"
        /// Correct the named setting (`setting`).
        case changeSetting = "change-setting"
        /// Give a slow peer longer to answer (`setting`: its timeout, such as `targets.timeout`).
        case allowMoreTime = "allow-more-time"
        /// Turn a share target back on (`setting`: group `targets`, the target's name as key).
        case enableTarget = "enable-target"
        /// Read what was copied from ShareSheet's own pasteboard file (`path`: the file).
        case readPasteboard = "read-pasteboard"
    }

    /// The kind of failure.
    public var kind: Kind
    /// A one-line message that names the item or service and the reason, without a program
    /// name, a command line or configuration syntax.
    public var message: String
    /// What would help, in plain words, when `fix` and `setting` do not say it all ("the
    /// server may be down"); never a command line or configuration syntax.
    public var hint: String?
    /// The interface field whose value only a person can give and that the activity found
    /// missing or wrong only while it ran (the PIN a LocalSend receiver asks for): a front end
    /// with a person at it may ask for it and share again with it set.
    public var field: String?
    /// The setting that fixes it or that is wrong, when there is one.
    public var setting: Setting?
    /// What kind of fix a person can make, when there is one.
    public var fix: Fix?
    /// The file or folder that matters (the configuration file to edit, where work was kept).
    public var path: String?

    /// Makes an error of the given kind.
    public init(
        _ kind: Kind, _ message: String, hint: String? = nil, field: String? = nil, setting: Setting? = nil,
        fix: Fix? = nil, path: String? = nil
    ) {
        self.kind = kind
        self.message = message
        self.hint = hint
        self.field = field
        self.setting = setting
        self.fix = fix
        self.path = path
    }

    public var description: String { message }
}
