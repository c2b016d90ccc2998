import ShareSheet

/// The window's own sentence for each kind of fix (SPEC §11: words belong to the front end).
///
/// The command words the same facts as its options and configuration keys; the window has no
/// options and no configuration syntax a person could type: it says what to set up in plain
/// words, never an option, a `[group]`, a `key=` or a file path (the configuration file's path
/// is a detail, shown under Details), and offers Settings… where the settings window fixes it.
enum FixWords {
    /// What would fix it, as one sentence; nil when the facts name no fix a person can make here.
    /// - Parameters:
    ///   - fix: the kind of fix.
    ///   - setting: the setting it concerns (an account's service is its key).
    ///   - disposition: where the items went, to say "to send it" only of what waits.
    static func sentence(_ fix: ShareError.Fix?, setting: ShareError.Setting?, disposition: ShareDisposition?) -> String? {
        switch fix {
        case .configureMailServer?: return "Set up a mail server to send mail from here."
        case .chooseMailSecurity?:
            return "If the mail server is a relay on this computer or network, allow it to send without encryption."
        case .setSender?: return "Set up your own From address for mail."
        case .configureMessaging?: return "Set up KDE Connect or an app for text messages to send it."
        case .addPrinter?: return "Add a printer to print it on paper."
        case .choosePrinter?: return "Choose one of the printers."
        case .addAccount?: return service(setting).map { "Add your \($0) account to post there." } ?? "Add an account for this service."
        case .protectFile?: return "Make the file readable by you only."
        case .givePin?: return "Enter the PIN the receiving device shows."
        case .chooseDevice?: return "Choose a device, or type its address."
        case .chooseApplication?: return "Choose one of the applications."
        case .flushOutbox?:
            // A mail waits because no server is set up: that is what would send it.
            if setting?.group == "mail", setting?.key == "smtp" { return "Set up a mail server to send it." }
            return disposition == .queued ? "It is sent once that is fixed." : "What waits in the outbox is sent once that is fixed."
        case .useTerminal?: return "Share from a terminal instead."
        case .chooseActivity?: return "Choose another way to share."
        case .allowMoreTime?: return "Give it longer to answer, or try again when it is less busy."
        case .enableTarget?: return "Turn this share target back on."
        case .readPasteboard?: return "What was copied is kept in ShareSheet's own clipboard."
        case .changeSetting?: return "A setting needs to be corrected."
        case nil: return nil
        }
    }

    /// True when the settings window is where the person makes the fix: a mail server, its
    /// security, the From address, a printer, an account, or a setting to correct.
    static func opensSettings(_ fix: ShareError.Fix?, setting: ShareError.Setting?) -> Bool {
        switch fix {
        case .configureMailServer?, .chooseMailSecurity?, .setSender?, .addPrinter?, .addAccount?, .changeSetting?:
            return true
        case .flushOutbox?:
            // Mail waits because no server is set: setting one up is the fix.
            return setting?.group == "mail" && setting?.key == "smtp"
        default:
            return false
        }
    }

    /// An account's service in words: its key ("mastodon" → "Mastodon").
    private static func service(_ setting: ShareError.Setting?) -> String? {
        guard let key = setting?.key, let first = key.first else { return nil }
        return first.uppercased() + key.dropFirst()
    }
}
