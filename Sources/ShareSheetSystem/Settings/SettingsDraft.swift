import Foundation

/// What the settings window shows and changes, read from the configuration file and written
/// back to it (SPEC §7): the window edits these values, never the file's text, so it needs no
/// configuration syntax of its own and a front end other than GTK could show the same form.
///
/// Saving changes only the keys whose value the person changed, through `ConfigurationEditor`:
/// comments, blank lines, unknown groups and keys, and keys set by hand meanwhile all stay.
public struct SettingsDraft: Equatable, Sendable {
    /// How mail reaches the server: the STARTTLS rule of an `smtp://` server, or an `smtps://`
    /// server (encrypted from the first byte).
    public enum MailSecurity: String, CaseIterable, Sendable {
        /// `smtp://` with `starttls=required`: the program's default.
        case startTLSRequired
        /// `smtp://` with `starttls=optional`: encrypted when the server offers it.
        case startTLSOptional
        /// `smtp://` with `starttls=off`: a relay on this computer or network.
        case none
        /// `smtps://`.
        case tls
    }

    /// The mail server as `HOST` or `HOST:PORT`; empty for none (mail waits in the outbox).
    public var mailServer = ""
    public var mailSecurity = MailSecurity.startTLSRequired
    /// The From address (`Name <address>` or `address`); empty for the guessed one.
    public var mailFrom = ""
    /// The login name; empty for none.
    public var mailUser = ""
    /// The CUPS queue Print uses; empty for the desktop's default printer.
    public var printer = ""
    /// The folder inside Pictures and Videos that Save to Photos uses; empty for none.
    public var photosSubfolder = ""
    /// The name other devices see; empty for the host name.
    public var nearbyName = ""
    /// False when nearby discovery is off (only typed addresses work).
    public var nearbyDiscovery = true
    /// The desktop ids of the share targets turned off.
    public var disabledTargets: [String] = []

    /// The defaults: what a missing configuration file means.
    public init() {}

    /// The values `configuration` sets.
    public init(configuration: Configuration) {
        let smtp = configuration.string("smtp", in: "mail") ?? ""
        let parts = Self.serverParts(smtp)
        mailServer = parts.server
        if parts.implicitTLS {
            mailSecurity = .tls
        } else {
            switch configuration.string("starttls", in: "mail")?.lowercased() {
            case "optional": mailSecurity = .startTLSOptional
            case "off": mailSecurity = .none
            default: mailSecurity = .startTLSRequired
            }
        }
        mailFrom = configuration.string("from", in: "mail") ?? ""
        mailUser = configuration.string("user", in: "mail") ?? ""
        printer = configuration.string("printer", in: "print") ?? ""
        photosSubfolder = configuration.string("subfolder", in: "photos") ?? ""
        nearbyName = configuration.string("alias", in: "nearby") ?? ""
        nearbyDiscovery = configuration.bool("enabled", in: "nearby") ?? true
        disabledTargets = (configuration.string("disabled", in: "targets") ?? "")
            .split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The settings of `file` (a missing file gives the defaults).
    /// - Throws: `ShareError(.configuration)` when the file is malformed.
    public static func load(file: URL) throws -> SettingsDraft {
        SettingsDraft(configuration: try Configuration.load(file: file))
    }

    /// A typed server without its scheme and any login in it, and whether the scheme asks for
    /// TLS from the start: `smtps://mail.example.com:465` → (`mail.example.com:465`, true).
    /// A login written into the address is left out so a password never shows in a field.
    public static func serverParts(_ typed: String) -> (server: String, implicitTLS: Bool) {
        var text = typed.trimmingCharacters(in: .whitespacesAndNewlines)
        var implicitTLS = false
        if let range = text.range(of: "://") {
            implicitTLS = text[..<range.lowerBound].lowercased() == "smtps"
            text = String(text[range.upperBound...])
        }
        if let at = text.lastIndex(of: "@") { text = String(text[text.index(after: at)...]) }
        while text.hasSuffix("/") { text.removeLast() }
        return (text, implicitTLS)
    }

    /// What is wrong with the draft, one sentence each, in words for a person; empty when it
    /// can be saved.
    public var problems: [String] {
        var problems: [String] = []
        let server = Self.serverParts(mailServer).server
        if !server.isEmpty {
            let host: Substring
            if let colon = server.lastIndex(of: ":"), !server.hasSuffix("]") {
                host = server[..<colon]
                if let port = Int(server[server.index(after: colon)...]), (1...65535).contains(port) {} else {
                    problems.append("The mail server's port must be a number from 1 to 65535.")
                }
            } else {
                host = Substring(server)
            }
            if host.isEmpty || host.contains(where: { $0.isWhitespace || $0 == "/" }) {
                problems.append("The mail server must be a host name or address, such as mail.example.com.")
            }
        }
        if !mailFrom.isEmpty, !mailFrom.contains("@") {
            problems.append("The From address must be an e-mail address, such as ana@example.com.")
        }
        let folder = photosSubfolder.split(separator: "/")
        if photosSubfolder.hasPrefix("/") || folder.contains(".") || folder.contains("..") {
            problems.append("The photos folder must be a folder inside Pictures, without “.” or “..”.")
        }
        return problems
    }

    /// The changes that turn `original` into this draft, one per key whose value differs; a
    /// value emptied removes its key (the program's default applies again).
    public func edits(from original: SettingsDraft) -> [ConfigurationEditor.Edit] {
        var edits: [ConfigurationEditor.Edit] = []
        func set(_ group: String, _ key: String, _ value: String, _ before: String) {
            let new = value.trimmingCharacters(in: .whitespaces)
            guard new != before.trimmingCharacters(in: .whitespaces) else { return }
            edits.append((group, key, new.isEmpty ? nil : new))
        }
        let typed = Self.serverParts(mailServer)
        let security = typed.implicitTLS ? .tls : mailSecurity
        if typed.server != original.mailServer || security != original.mailSecurity {
            if typed.server.isEmpty {
                // No server, no rule for it: a server set up later starts from the safe default.
                edits.append(("mail", "smtp", nil))
                edits.append(("mail", "starttls", nil))
            } else {
                edits.append(("mail", "smtp", (security == .tls ? "smtps://" : "smtp://") + typed.server))
                switch security {
                case .startTLSRequired, .tls: edits.append(("mail", "starttls", nil))
                case .startTLSOptional: edits.append(("mail", "starttls", "optional"))
                case .none: edits.append(("mail", "starttls", "off"))
                }
            }
        }
        set("mail", "from", mailFrom, original.mailFrom)
        set("mail", "user", mailUser, original.mailUser)
        set("print", "printer", printer, original.printer)
        set("photos", "subfolder", photosSubfolder, original.photosSubfolder)
        set("nearby", "alias", nearbyName, original.nearbyName)
        if nearbyDiscovery != original.nearbyDiscovery {
            edits.append(("nearby", "enabled", nearbyDiscovery ? nil : "false"))
        }
        if disabledTargets != original.disabledTargets {
            edits.append(("targets", "disabled", disabledTargets.isEmpty ? nil : disabledTargets.joined(separator: ";")))
        }
        return edits
    }

    /// Writes what changed since `original` into `file`, atomically, keeping everything else.
    /// - Throws: `ShareError(.badData)` when the file cannot be read, `.ioError` when it cannot
    ///   be written.
    public func save(to file: URL, from original: SettingsDraft) throws {
        let changes = edits(from: original)
        guard !changes.isEmpty else { return }
        try ConfigurationEditor.update(file) { _ in changes }
    }
}
