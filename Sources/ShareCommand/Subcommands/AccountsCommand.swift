import Foundation
import ShareSheet
import Social

/// `share accounts add|list|remove SERVICE`: the accounts the posting activities use. A token
/// is read from standard input (or `--token`), kept in the Secret Service or the 0600 tokens
/// file, and never printed.
enum AccountsCommand: ShareSubcommand {
    static let name = "accounts"
    static let usage = [
        "share accounts list                     services with a token, and its store",
        "share accounts add SERVICE [--token T]  keep a token (stdin without --token)",
        "share accounts remove SERVICE           forget SERVICE's token",
    ]

    private static var serviceNames: String { SocialService.allCases.map(\.rawValue).joined(separator: ", ") }

    static func run(_ arguments: [String], context: CommandContext) async throws -> Termination {
        var rest = arguments[...]
        guard let action = rest.popFirst() else {
            throw ShareError(.usage, "accounts: say list, add SERVICE or remove SERVICE")
        }
        let store = AccountStore(environment: context.environment)
        switch action {
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
            let service = try serviceArgument(&rest, action: action)
            var token: String?
            while let argument = rest.popFirst() {
                if argument == "--token", let value = rest.popFirst() {
                    token = value
                } else if argument.hasPrefix("--token=") {
                    token = String(argument.dropFirst("--token=".count))
                } else {
                    throw ShareError(.usage, "accounts add: unknown argument '\(argument)'")
                }
            }
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
            let service = try serviceArgument(&rest, action: action)
            guard rest.isEmpty else { throw ShareError(.usage, "accounts remove takes one service") }
            if try store.remove(service) {
                context.standardOutput.write("\(service): token removed\n")
                return .success
            }
            throw ShareError(.noInput, "accounts: \(service): no account to remove")
        default:
            throw ShareError(.usage, "accounts: unknown action '\(action)' (list, add or remove)")
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
