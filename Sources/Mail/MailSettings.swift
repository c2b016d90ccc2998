import Foundation
import Secrets
import ShareSheet
import ShareSheetSystem

/// How mail leaves this machine: the `[mail]` group of the configuration file, with
/// per-invocation overrides (`share --set smtp=URL`).
///
/// ```
/// [mail]
/// smtp=smtp://mail.example.com:587
/// from=Ana Lima <ana@example.com>
/// user=ana
/// starttls=required
/// cafile=/path/to/ca.pem
/// via=smtp
/// undo-seconds=10
/// ```
///
/// No `smtp` means the outbox only. The password for `user` comes from
/// `SHARESHEET_SMTP_PASSWORD`, else the Secret Service. `starttls` is `required` (the default),
/// `optional` or `off`; `cafile` adds a trusted CA; `via=mailto` hands messages to the desktop's
/// mail program instead; `undo-seconds` holds a message in the outbox that long before it is
/// sent, so it can be taken back. (GLib key files have no comments after a value.)
public struct MailSettings: Sendable {
    /// The SMTP server (`smtp://host:port` or `smtps://host:port`); nil queues in the outbox.
    public var smtp: URL?
    /// The sender; nil makes one from the user and host names.
    public var from: String?
    /// The login name, when the server wants one.
    public var user: String?
    /// The password for `user`.
    public var password: String?
    /// Whether STARTTLS is required, tried or skipped on `smtp://`.
    public var startTLS: StartTLS
    /// A CA file trusted on top of the system's.
    public var caFile: String?
    /// Seconds to wait for the server to answer the connection.
    public var connectTimeout: Int
    /// Hand the message to the desktop's mail program (`mailto:`) instead of sending it.
    public var handOff: Bool
    /// The outbox.
    public var outbox: MailOutbox
    /// How long a message waits in the outbox before it is sent, so the person can take it
    /// back; nil when the file does not say, and the front end decides (10 s in the window,
    /// none elsewhere: `MailUndo.seconds`).
    public var undoSeconds: Int?
    /// The login name the default sender is made from (`USER` of the host environment).
    public var loginName: String?
    /// Where delivery says each step (`share --verbose`): the host's, or none.
    public var steps: StepLog?

    /// What `starttls=` says.
    public enum StartTLS: String, Sendable {
        case required, optional, off
    }

    /// The settings of a host: its configuration file's `[mail]`, its outbox, its password
    /// variables, then `overrides`.
    /// - Throws: `ShareError(.configuration)` for a malformed file or a value of it that makes no
    ///   sense, `.usage` for an override that makes none.
    public init(host: HostEnvironment, overrides: [String: String] = [:]) throws {
        try self.init(
            configuration: host.loadConfiguration(), overrides: overrides, environment: host.variables,
            directories: host.directories)
        steps = host.steps
    }

    /// Settings that only queue in `outbox`.
    public init(outbox: MailOutbox = MailOutbox()) {
        smtp = nil
        startTLS = .required
        connectTimeout = 15
        handOff = false
        self.outbox = outbox
        loginName = HostEnvironment.process["USER"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Reads `[mail]` from `configuration`, then applies `overrides` (same keys).
    /// - Parameters:
    ///   - configuration: the parsed configuration file.
    ///   - overrides: values that win over the file's, by key (`--set smtp=…`).
    ///   - environment: the host environment: where `SHARESHEET_SMTP_PASSWORD` and `USER` are
    ///     looked up; its XDG folders hold the outbox unless `directories` says otherwise.
    ///   - directories: where the outbox is; those of `environment` when nil.
    /// - Throws: `ShareError(.usage)` for a value of `overrides` that makes no sense,
    ///   `.configuration` (naming the file and line) for one of the file.
    public init(
        configuration: Configuration, overrides: [String: String] = [:],
        environment: [String: String] = HostEnvironment.process.variables,
        directories: XDGDirectories? = nil
    ) throws {
        try self.init(
            configuration: configuration, overrides: overrides, environment: environment, directories: directories,
            looksUpPassword: true)
    }

    /// As above; `looksUpPassword` false leaves the Secret Service alone (a help page only says
    /// where mail goes, it sends nothing).
    init(
        configuration: Configuration, overrides: [String: String], environment: [String: String],
        directories: XDGDirectories?, looksUpPassword: Bool
    ) throws {
        self.init(outbox: MailOutbox(directories: directories ?? XDGDirectories(environment: environment)))
        loginName = environment["USER"].flatMap { $0.isEmpty ? nil : $0 }
        func value(_ key: String) -> String? {
            let text = overrides[key] ?? configuration.string(key, in: "mail")
            return text.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
        }
        // A wrong value given for this share is a usage error; one in the file is a
        // configuration error that names the file and the line.
        func invalid(_ key: String, _ text: String, _ reason: String) -> ShareError {
            if overrides[key] != nil { return ShareError(.usage, "Mail: \(key)=\(text): \(reason)") }
            return configuration.problem(with: key, in: "mail", reason)
        }
        if let text = value("smtp") {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "smtp" || scheme == "smtps",
                url.host?.isEmpty == false
            else { throw invalid("smtp", text, "not an smtp:// or smtps:// URL") }
            smtp = url
        }
        from = value("from")
        if let from, Mailbox(from) == nil { throw invalid("from", from, "not an e-mail address") }
        user = value("user")
        if let text = value("starttls") {
            switch text.lowercased() {
            case "required", "true", "yes": startTLS = .required
            case "optional", "try": startTLS = .optional
            case "off", "false", "no": startTLS = .off
            default: throw invalid("starttls", text, "use required, optional or off")
            }
        }
        caFile = value("cafile")
        if let text = value("timeout") {
            guard let seconds = Int(text), seconds > 0 else { throw invalid("timeout", text, "not a number of seconds") }
            connectTimeout = seconds
        }
        if let text = value("undo-seconds") {
            guard let seconds = Int(text), seconds >= 0 else { throw invalid("undo-seconds", text, "not a number of seconds") }
            undoSeconds = seconds
        }
        if let text = value("via") {
            switch text.lowercased() {
            case "smtp", "outbox": handOff = false
            case "mailto", "mail-program", "client": handOff = true
            default: throw invalid("via", text, "use smtp or mailto")
            }
        }
        if user != nil, looksUpPassword {
            password = try environment["SHARESHEET_SMTP_PASSWORD"]
                ?? SMTPPassword.lookup(server: smtp?.host ?? "", user: user!, environment: environment)
        }
    }

    /// The sender to write: `from`, else the login user at the host.
    var sender: String {
        if let from { return from }
        let login = loginName ?? "user"
        let host = ProcessInfo.processInfo.hostName
        let address = "\(login)@\(host.contains(".") ? host : host + ".localdomain")"
        return Mailbox(address) != nil ? address : "user@localhost.localdomain"
    }

    /// The server for libcurl, with the TLS rule.
    var endpoint: SMTPEndpoint? {
        guard let smtp else { return nil }
        let isImplicitTLS = smtp.scheme?.lowercased() == "smtps"
        let requirement: SMTPEndpoint.TLSRequirement
        switch startTLS {
        case .required: requirement = .required
        case .optional: requirement = .opportunistic
        case .off: requirement = isImplicitTLS ? .required : .off
        }
        return SMTPEndpoint(
            url: smtp.absoluteString, requireTLS: requirement, user: user, password: password, caFile: caFile,
            connectTimeout: connectTimeout)
    }

    /// The server's URL without a user or password, for what `--verbose` says.
    var serverURL: String {
        guard let smtp, var components = URLComponents(url: smtp, resolvingAgainstBaseURL: false) else { return "the outbox" }
        components.user = nil
        components.password = nil
        return components.url?.absoluteString ?? serverName
    }

    /// The server as people name it: `host:port`.
    var serverName: String {
        guard let smtp, let host = smtp.host else { return "the outbox" }
        return smtp.port.map { "\(host):\($0)" } ?? host
    }
}

/// The SMTP password from the Secret Service (GNOME Keyring, KWallet), kept by the shared
/// `SecretStore` under its rules.
///
/// The item has the attributes `application=org.sharesheet`, `service=smtp`, `server=HOST` and
/// `user=NAME`; any schema matches, so `secret-tool store --label='ShareSheet SMTP'
/// application org.sharesheet service smtp server HOST user NAME` stores one.
enum SMTPPassword {
    /// The password stored for `user` on `server`, or nil when none is stored, when there is no
    /// session bus (libsecret is then not asked at all, so nothing waits on D-Bus activation) or
    /// when no Secret Service answers on it.
    /// - Throws: `ShareError(.ioError)` when a Secret Service answers but fails (a keyring left
    ///   locked): sending without the password would only be refused.
    static func lookup(server: String, user: String, environment: [String: String]) throws -> String? {
        guard SecretStore.busIsPresent(environment: environment) else { return nil }
        do {
            return try SecretStore.lookup(attributes: ["service": "smtp", "server": server, "user": user])
        } catch {
            if error.unreachable { return nil }
            throw ShareError(.ioError, "Mail: the Secret Service failed to give the password of \(user) on \(server): \(error.message)")
        }
    }
}
