import Foundation
import ShareSheet
import ShareSheetSystem
import Social

/// `share accounts add|list|remove SERVICE`: the accounts the posting activities use. A token
/// is typed with echo off on a terminal, or read from standard input (one line) otherwise
/// (never an option: it would stay in the shell's history and show in `ps`), checked, kept in
/// the Secret Service or the 0600 tokens file, and never printed.
enum AccountsCommand: ShareSubcommand {
    static let spec = CommandSpec(
        name: "accounts", summary: "the accounts the posting activities use",
        about: "A token is typed with echo off on a terminal, or read from standard input (one line), checked, "
            + "kept in the Secret Service or the 0600 tokens file, and never printed. A Mastodon token is checked "
            + "against its instance first. SERVICE is one of: "
            + SocialService.allCases.map(\.rawValue).joined(separator: ", ") + ".",
        actions: [
            ActionSpec(
                name: "list", summary: "services with a token, and where it is kept",
                options: [JSONOutput.jsonOption, JSONOutput.prettyOption]),
            ActionSpec(
                name: "add", operands: "SERVICE", operandKind: .choices(SocialService.allCases.map(\.rawValue)),
                summary: "keep a token, typed (echo off) or read from standard input",
                options: [.value("--instance", "HOST", "mastodon: the instance, when [mastodon] instance= is not set")]),
            ActionSpec(
                name: "remove", operands: "SERVICE", operandKind: .choices(SocialService.allCases.map(\.rawValue)),
                summary: "forget SERVICE's token"),
        ],
        examples: [
            "share accounts add mastodon", "share accounts add mastodon --instance mastodon.social < token.txt",
            "share accounts list --json",
        ])

    private static var serviceNames: String { SocialService.allCases.map(\.rawValue).joined(separator: ", ") }

    static func run(_ arguments: [String], context: CommandContext) async throws -> Termination {
        let action = try spec.action(named: arguments.first)
        // --token used to be taken: its users need the new way, not only "unknown option".
        if arguments.dropFirst().contains(where: { $0 == "--token" || $0.hasPrefix("--token=") }) {
            throw ShareError(
                .usage,
                "accounts \(action.name): unknown option '--token' (a token given on the command line stays in the shell's "
                    + "history and shows in ps): type it when asked, or pipe it: share accounts add SERVICE < token.txt")
        }
        let parsed = try options(Array(arguments.dropFirst()), for: action)
        var rest = parsed.operands[...]
        let store = AccountStore(environment: context.environment)
        switch action.name {
        case "list":
            guard rest.isEmpty else { throw ShareError(.usage, "accounts list takes no arguments") }
            let accounts = try store.list()
            if let format = try JSONOutput.format(parsed, command: "accounts list") {
                try JSONOutput.write(listing(accounts, store: store), format: format, to: context)
                return .success
            }
            if accounts.isEmpty {
                context.standardOutput.write("no accounts (add one with share accounts add SERVICE)\n")
            }
            for account in accounts {
                let location = account.location == .file ? "\(account.location) (\(store.tokensFile.path))" : "\(account.location)"
                context.standardOutput.write(account.service.rawValue.padding(10) + location + "\n")
            }
            return .success
        case "add":
            let service = try serviceArgument(&rest, action: action.name)
            guard rest.isEmpty else { throw ShareError(.usage, "accounts add takes one service") }
            if parsed.value("--instance") != nil, service != .mastodon {
                throw ShareError(.usage, "accounts add: --instance is for mastodon only")
            }
            // The instance comes first: a token is only worth typing once it can be checked.
            let instance = service == .mastodon ? try mastodonInstance(parsed.value("--instance"), context: context) : nil
            let token = try TokenFormat.checked(try readToken(for: service, context: context), for: service)
            var whose = ""
            if let instance {
                let username = try await MastodonAccountCheck.username(token: token, instance: instance.url)
                whose = " for @\(username)"
            }
            let location = try store.save(token, for: service)
            let place = location == .file ? "\(location) (\(store.tokensFile.path), readable only by you)" : "\(location)"
            context.standardOutput.write("\(service): token\(whose) kept in \(place)\n")
            if let instance, instance.isNew { try keepInstance(instance.url, context: context) }
            return .success
        case "remove":
            let service = try serviceArgument(&rest, action: action.name)
            guard rest.isEmpty else { throw ShareError(.usage, "accounts remove takes one service") }
            if try store.remove(service) {
                context.standardOutput.write("\(service): token removed\n")
                return .success
            }
            throw ShareError(.noInput, "accounts: \(service): no account to remove")
        default:
            preconditionFailure("an action of the spec without a case: \(action.name)")
        }
    }

    private static func serviceArgument(_ rest: inout ArraySlice<String>, action: String) throws -> SocialService {
        guard let name = rest.popFirst() else {
            throw ShareError(.usage, "accounts \(action): name a service (\(serviceNames))")
        }
        guard let service = SocialService(named: name) else {
            throw ShareError(.usage, "accounts: unknown service '\(name)' (\(serviceNames))")
        }
        return service
    }
}
