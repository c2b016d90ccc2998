import ShareSheet

/// What fixes a failure or changes a fallback, as a plain sentence for a person at a window or
/// behind the service: no command line, no option, no configuration syntax (SPEC §11). The
/// `share` command words the same facts as its options and keys instead.
public enum PlainAdvice {
    /// The backend's own hint inside `plain` (what `plainAdvice` sent over the wire): without
    /// the sentence the facts make, which the receiving front end words its own way; nil when
    /// nothing else was said.
    public static func ownHint(
        of plain: String?, fix: ShareError.Fix?, setting: ShareError.Setting?, path: String?
    ) -> String? {
        guard let plain else { return nil }
        guard let sentence = sentence(fix: fix, setting: setting, path: path) else { return plain }
        guard plain.hasPrefix(sentence) else { return plain }
        let rest = plain.dropFirst(sentence.count).trimmingCharacters(in: .whitespaces)
        return rest.isEmpty ? nil : rest
    }

    /// The sentence for a fix, or nil when the facts name none.
    /// - Parameters:
    ///   - fix: what kind of fix a person can make.
    ///   - setting: the setting it concerns (for an account: group `accounts`, the service as key).
    ///   - path: the file that matters, named at the end when there is one.
    public static func sentence(fix: ShareError.Fix?, setting: ShareError.Setting?, path: String?) -> String? {
        let inFile = path.map { " (\($0))" } ?? ""
        switch fix {
        case .configureMailServer?: return "Set the mail server in the mail settings\(inFile)."
        case .chooseMailSecurity?:
            return "If this server is a local relay, allow mail without STARTTLS, or only when the server offers it, in the mail settings\(inFile)."
        case .setSender?: return "Set your From address in the mail settings\(inFile)."
        case .configureMessaging?:
            return "Set up KDE Connect or an SMS application for text messages\(inFile); what waits in the outbox can then be sent."
        case .addPrinter?: return "Add a printer in the printer settings, then choose it."
        case .choosePrinter?: return "Choose one of the printers."
        case .addAccount?: return "Add an account for \(setting?.key ?? "this service") in the accounts settings."
        case .protectFile?: return "Make \(path ?? "the file") readable by you only."
        case .givePin?: return "Enter the PIN the receiving device shows."
        case .chooseDevice?: return "Choose a device, or type its address."
        case .chooseApplication?: return "Choose one of the applications."
        case .flushOutbox?: return "What waits in the outbox can be sent once the cause is fixed."
        case .useTerminal?: return "Share in a terminal instead."
        case .chooseActivity?: return "Choose one of the activities the sheet offers."
        case .allowMoreTime?:
            let place = setting.map { setting in " (\(setting.key)" + (setting.group.map { " in the \($0) settings" } ?? "") + ")" } ?? ""
            return "Give it longer to answer\(place)."
        case .enableTarget?: return "Turn \(setting?.key ?? "the target") back on in the share-target settings."
        case .readPasteboard?: return "What was copied waits in ShareSheet's own pasteboard\(inFile)."
        case nil: return nil
        case .changeSetting?:
            guard let setting else { return nil }
            let place = setting.group.map { " in the \($0) settings" } ?? ""
            return "Change the setting \(setting.key)\(place)\(inFile)."
        }
    }
}

extension ShareResult.Failure {
    /// What fixes it in plain words: the facts' sentence, then the backend's own hint, if any.
    public var plainAdvice: String? {
        let parts = [PlainAdvice.sentence(fix: fix, setting: setting, path: path), hint].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }
}

extension ActivityFallback {
    /// What changes it in plain words: the facts' sentence, then the backend's own hint, if any.
    public var plainAdvice: String? {
        let parts = [PlainAdvice.sentence(fix: fix, setting: setting, path: path), hint].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }
}
