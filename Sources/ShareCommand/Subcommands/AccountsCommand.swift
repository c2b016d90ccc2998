import Foundation
import ShareSheet
import Social

/// `share accounts add|list|remove SERVICE`: the accounts the posting activities use. A token
/// is read from standard input (or `--token`), kept in the Secret Service or the 0600 tokens
/// file, and never printed.
enum AccountsCommand: ShareSubcommand {
    static let spec = CommandSpec(
        name: "accounts", summary: "the accounts the posting activities use",
        about: "A token is read from standard input (or --token), kept in the Secret Service or the 0600 "
            + "tokens file, and never printed. SERVICE is one of: "
            + SocialService.allCases.map(\.rawValue).joined(separator: ", ") + ".",
        actions: [
            ActionSpec(name: "list", summary: "services with a token, and where it is kept"),
            ActionSpec(
                name: "add", operands: "SERVICE", operandKind: .choices(SocialService.allCases.map(\.rawValue)),
                summary: "keep a token (read from standard input without --token)",
                options: [.value("--token", "TOKEN", "the token itself")]),
            ActionSpec(
                name: "remove", operands: "SERVICE", operandKind: .choices(SocialService.allCases.map(\.rawValue)),
                summary: "forget SERVICE's token"),
        ],
        examples: ["share accounts add mastodon < token.txt", "share accounts list"])

    private static var serviceNames: String { SocialService.allCases.map(\.rawValue).joined(separator: ", ") }

    static func run(_ arguments: [String], context: CommandContext) async throws -> Termination {
        let action = try spec.action(named: arguments.first)
        let parsed = try options(Array(arguments.dropFirst()), for: action)
        var rest = parsed.operands[...]
        let store = AccountStore(environment: context.environment)
        switch action.name {
        case "list":
            guard rest.isEmpty else { throw ShareError(.usage, "accounts list takes no arguments") }
            let accounts = try store.list()
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
            var token = parsed.value("--token")
            if token == nil {
                if context.standardInputIsTerminal {
                    context.standardError.write("Paste the \(service.displayName) token, then press Ctrl-D:\n")
                }
                let data = try context.readStandardInput()
                token = String(decoding: data, as: UTF8.self)
            }
            let location = try store.save(token ?? "", for: service)
            let place = location == .file ? "\(location) (\(store.tokensFile.path), readable only by you)" : "\(location)"
            context.standardOutput.write("\(service): token kept in \(place)\n")
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
