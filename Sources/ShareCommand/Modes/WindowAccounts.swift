import Foundation
import ShareSheet
import ShareSheetGTK
import ShareSheetSystem
import Social

/// The posting accounts as the settings window adds and removes them: the same store, token
/// checks and Mastodon instance check as `share accounts`, worded for the window (no option,
/// no key, no file path).
struct WindowAccounts: SettingsAccounts {
    let host: HostEnvironment

    private var store: AccountStore { AccountStore(environment: host.variables) }

    func accounts() -> [SettingsAccount] {
        let configuration = try? host.loadConfiguration()
        let instance = configuration?.string("instance", in: SocialService.mastodon.configurationGroup)
        return SocialService.allCases.map { service in
            SettingsAccount(
                id: service.rawValue, title: service.displayName, isAdded: store.hasToken(for: service),
                asksForInstance: service == .mastodon, instance: service == .mastodon ? instance : nil)
        }
    }

    func add(_ id: String, token typed: String, instance: String?) async throws -> String {
        guard let service = SocialService(rawValue: id) else { throw SettingsAccountProblem("There is no such service.") }
        let token: String
        do {
            token = try TokenFormat.checked(typed, for: service)
        } catch let error as ShareError {
            // "mastodon: the token is empty; nothing kept" → "The token is empty; nothing kept."
            let reason = error.message.drop { $0 != ":" }.dropFirst().trimmingCharacters(in: .whitespaces)
            throw SettingsAccountProblem(reason.prefix(1).uppercased() + reason.dropFirst() + ".")
        }
        var whose = ""
        var newInstance: URL?
        if service == .mastodon {
            guard let url = MastodonAccountCheck.instanceURL(instance ?? "") else {
                throw SettingsAccountProblem("Type the Mastodon server the account is on, such as mastodon.social.")
            }
            do {
                whose = " for @" + (try await MastodonAccountCheck.username(token: token, instance: url))
            } catch let error as ShareError {
                throw SettingsAccountProblem(
                    error.kind == .temporaryFailure
                        ? "\(url.host ?? "The server") could not be reached; nothing was kept. Try again in a moment."
                        : "\(url.host ?? "The server") did not accept the token; nothing was kept.")
            }
            let configured = (try? host.loadConfiguration())?.string("instance", in: service.configurationGroup)
                .flatMap(MastodonAccountCheck.instanceURL)
            if configured != url { newInstance = url }
        }
        let location: AccountStore.Location
        do {
            location = try store.save(token, for: service)
            if let newInstance {
                // Posts go where the token was checked.
                try ConfigurationEditor.update(host.directories.configurationFile) { _ in
                    [(group: service.configurationGroup, key: "instance", value: newInstance.absoluteString)]
                }
            }
        } catch {
            throw SettingsAccountProblem("The token could not be kept: \((error as? ShareError)?.message ?? "\(error)").")
        }
        let place = location == .secretService ? "the password store" : "a file only you can read"
        return "The \(service.displayName) account\(whose) is added; its token is kept in \(place)."
    }

    func remove(_ id: String) async throws {
        guard let service = SocialService(rawValue: id) else { return }
        do {
            try store.remove(service)
        } catch {
            let reason = (error as? ShareError)?.message ?? "\(error)"
            throw SettingsAccountProblem("The \(service.displayName) account could not be removed: \(reason).")
        }
    }
}
