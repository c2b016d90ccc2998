import Foundation
import ShareSheet
import ShareSheetSystem
import Social

/// What `share accounts add` asks for: the token, and Mastodon's instance; and the JSON listing.
extension AccountsCommand {
    /// The token as typed (echo off) on a terminal, else all of standard input; checked by
    /// `TokenFormat`, which refuses more than one line, so `printf 'a\nb'` is not half kept.
    static func readToken(for service: SocialService, context: CommandContext) throws -> String {
        guard context.standardInputIsTerminal else {
            return String(decoding: try context.readStandardInput(), as: UTF8.self)
        }
        // The newline typed after the token was not echoed: without this one the next line
        // would start after the prompt.
        defer { context.standardError.write("\n") }
        return try TerminalLine.read(descriptor: context.standardInputDescriptor, echo: false) {
            context.standardError.write("Token for \(service): ")
        } ?? ""
    }

    /// The Mastodon instance a token is checked against, and whether it must be written to the
    /// configuration (it was given or typed, and differs from `[mastodon] instance=`/`api=`).
    /// - Throws: `ShareError(.configuration)` when no instance is configured, given or typed.
    static func mastodonInstance(_ option: String?, context: CommandContext) throws -> (url: URL, isNew: Bool) {
        let host = HostEnvironment(variables: context.environment)
        let configuration = try host.loadConfiguration()
        let group = SocialService.mastodon.configurationGroup
        let configured = ["instance", "api"].lazy.compactMap { configuration.string($0, in: group) }
            .compactMap(MastodonAccountCheck.instanceURL).first
        if let option {
            guard let url = MastodonAccountCheck.instanceURL(option) else {
                throw ShareError(.usage, "accounts add: --instance '\(option)' is not a host name or an http(s) address")
            }
            return (url, url != configured)
        }
        if let configured { return (configured, false) }
        guard context.standardInputIsTerminal else {
            throw ShareError(
                .configuration,
                "mastodon: which instance? pass --instance HOST, or set [mastodon] instance= in "
                    + "\(host.configurationFileDisplayPath); nothing kept")
        }
        let typed = try TerminalLine.read(descriptor: context.standardInputDescriptor, echo: true) {
            context.standardError.write("Mastodon instance (e.g. mastodon.social): ")
        } ?? ""
        guard let url = MastodonAccountCheck.instanceURL(typed) else {
            throw ShareError(
                .configuration,
                typed.trimmingCharacters(in: .whitespaces).isEmpty
                    ? "mastodon: no instance given; nothing kept" : "mastodon: '\(typed)' is not an instance's address; nothing kept")
        }
        return (url, true)
    }

    /// Writes `[mastodon] instance=` so that posting goes where the token was checked.
    static func keepInstance(_ url: URL, context: CommandContext) throws {
        let host = HostEnvironment(variables: context.environment)
        try ConfigurationEditor.update(host.directories.configurationFile) { _ in
            [(group: SocialService.mastodon.configurationGroup, key: "instance", value: url.absoluteString)]
        }
        context.standardOutput.write("mastodon: instance \(url.absoluteString) kept in \(host.configurationFileDisplayPath)\n")
    }

    /// One account in `share accounts list --json`.
    struct Listing: Encodable {
        var service: String
        /// `secret-service`, `file` or `environment` (a `SHARESHEET_TOKEN_<SERVICE>` variable).
        var store: String
        /// The tokens file for `file`, else null.
        var path: String?

        private enum CodingKeys: String, CodingKey { case service, store, path }

        // Written out so that `path` is `null` rather than missing: one shape for every row.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(service, forKey: .service)
            try container.encode(store, forKey: .store)
            try container.encode(path, forKey: .path)
        }
    }

    /// The rows of `share accounts list --json`.
    static func listing(_ accounts: [(service: SocialService, location: AccountStore.Location)], store: AccountStore) -> [Listing] {
        accounts.map { account in
            switch account.location {
            case .secretService: return Listing(service: account.service.rawValue, store: "secret-service")
            case .file: return Listing(service: account.service.rawValue, store: "file", path: store.tokensFile.path)
            case .environment: return Listing(service: account.service.rawValue, store: "environment")
            }
        }
    }
}
