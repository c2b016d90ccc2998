import Foundation
import ShareSheet
import ShareSheetSystem

/// A token kept for a service. Its description, debug description and mirror (`dump`) never
/// show the token.
public struct StoredToken: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The token itself: send it, never print it.
    public let secret: String
    /// Where it was found.
    public let location: AccountStore.Location

    public var description: String { "token (\(secret.count) characters) in \(location)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["location": location], displayStyle: .struct) }
}

/// The accounts ShareSheet posts with: one token per service, kept in the Secret Service when
/// one answers on the session bus, else in a file only the user can read
/// (`$XDG_CONFIG_HOME/sharesheet/tokens`, mode 0600, written atomically). A
/// `SHARESHEET_TOKEN_<SERVICE>` environment variable wins over both.
///
/// Whether a service has an account (``account(for:)``, what a sheet asks) is answered without
/// reading a token or talking to the Secret Service: from the environment, the list of services
/// kept there (`AccountIndex`, written by ``save(_:for:)``, ``remove(_:)`` and ``list()``) and the
/// tokens file's names. The token is read only to post (``tokenForPosting(to:keptIn:)``).
///
/// Nothing here ever prints or logs a token.
public struct AccountStore: Sendable {
    /// Where a token is kept.
    public enum Location: String, Sendable, CustomStringConvertible {
        /// The desktop's Secret Service (libsecret).
        case secretService = "the Secret Service"
        /// The 0600 tokens file.
        case file = "the tokens file"
        /// A `SHARESHEET_TOKEN_<SERVICE>` environment variable.
        case environment = "the environment"

        public var description: String { rawValue }
    }

    /// Which store to use: `SHARESHEET_SECRET_STORE=file` or `secret-service` forces one.
    private enum Preference { case automatic, file, secretService }

    private let environment: [String: String]
    private let preference: Preference
    /// The fallback file.
    public let tokensFile: URL
    /// Its path, made once: a sheet looks at the file for every call.
    private let tokensPath: String
    /// Which services have a token in the Secret Service.
    private let index: AccountIndex

    /// The store of the user running this process.
    public init(
        directories: XDGDirectories = HostEnvironment.process.directories,
        environment: [String: String] = HostEnvironment.process.variables
    ) {
        self.environment = environment
        tokensFile = directories.configHome.appendingPathComponent("sharesheet/tokens", isDirectory: false)
        tokensPath = tokensFile.path
        index = AccountIndex(directories: directories)
        switch environment["SHARESHEET_SECRET_STORE"]?.lowercased() {
        case "file": preference = .file
        case "secret-service", "secretservice", "libsecret": preference = .secretService
        default: preference = .automatic
        }
    }

    /// The store of a process whose environment is `environment` (its XDG folders included).
    public init(environment: [String: String]) {
        self.init(directories: XDGDirectories(environment: environment), environment: environment)
    }

    private var triesSecretService: Bool {
        switch preference {
        case .file: return false
        case .secretService: return true
        case .automatic: return SecretService.busIsPresent(environment: environment)
        }
    }

    private static func environmentName(_ service: SocialService) -> String {
        "SHARESHEET_TOKEN_" + service.rawValue.uppercased()
    }

    // MARK: Presence

    /// Where the account for `service` is kept, or nil when there is none, without reading its
    /// token: the environment, then the services listed as kept in the Secret Service, then the
    /// tokens file's names. No D-Bus call, no unlock prompt; only when the list of Secret Service
    /// accounts is missing does one attributes-only search (once per process) make it again.
    /// - Throws: `ShareError(.ioError)` when the tokens file can be read by others or is damaged,
    ///   or when the Secret Service that must be used (`SHARESHEET_SECRET_STORE=secret-service`)
    ///   does not answer.
    public func account(for service: SocialService) throws -> Location? {
        try Lookup(self).account(for: service)
    }

    /// ``account(for:)`` for several services, with what they share worked out once, when first
    /// needed: whether the Secret Service is tried, its list of accounts, the tokens file. A sheet
    /// asks about every posting service; one lookup answers them all.
    final class Lookup {
        private let store: AccountStore
        private var triesSecretService: Bool?
        private var secretServiceAccounts: Result<Set<SocialService>, any Error>?
        private var fileTokens: Result<[String: String], any Error>?

        init(_ store: AccountStore) { self.store = store }

        /// What ``AccountStore/account(for:)`` says for `service`, the same value or error.
        func account(for service: SocialService) throws -> Location? {
            if let value = store.environment[AccountStore.environmentName(service)], !value.isEmpty { return .environment }
            let tries = triesSecretService ?? store.triesSecretService
            triesSecretService = tries
            if tries {
                let listed = secretServiceAccounts ?? Result { try store.secretServiceAccounts() }
                secretServiceAccounts = listed
                if try listed.get().contains(service) { return .secretService }
            }
            let tokens = fileTokens ?? Result { try store.readFile() }
            fileTokens = tokens
            if try tokens.get()[service.rawValue] != nil { return .file }
            return nil
        }
    }

    /// True when an account is kept for `service` (``account(for:)``); a store that cannot be
    /// read counts as none.
    public func hasToken(for service: SocialService) -> Bool {
        ((try? account(for: service)) ?? nil) != nil
    }

    /// The services with a kept token and where each is. Asks the Secret Service (one search,
    /// no token read) and rewrites the list of its accounts from the answer.
    public func list() throws -> [(service: SocialService, location: Location)] {
        var inSecretService: Set<SocialService> = []
        if triesSecretService, let found = try searchSecretService() {
            inSecretService = found
            index.replace(with: found)
        }
        let inFile = try readFile()
        return SocialService.allCases.compactMap { service in
            if let value = environment[Self.environmentName(service)], !value.isEmpty { return (service, .environment) }
            if inSecretService.contains(service) { return (service, .secretService) }
            if inFile[service.rawValue] != nil { return (service, .file) }
            return nil
        }
    }

    /// The services listed as kept in the Secret Service; without a list, one search makes it.
    private func secretServiceAccounts() throws -> Set<SocialService> {
        if let listed = index.read() { return listed }
        let outcome = Self.searchedWithoutList.withLock { searched in
            if let known = searched[index.path] { return known }
            let outcome: Result<Set<SocialService>, ShareError>
            do {
                // No answer (no Secret Service on the bus) is listed as none, so that the next
                // sheet does not ask again; share accounts add writes the list when it keeps one.
                let found = try searchSecretService() ?? []
                index.replace(with: found)
                outcome = .success(found)
            } catch let error as ShareError {
                outcome = .failure(error)
            } catch {
                outcome = .failure(ShareError(.ioError, "the Secret Service failed: \(error)"))
            }
            searched[index.path] = outcome
            return outcome
        }
        return try outcome.get()
    }

    /// What the one search made when the list was missing, per list: a process asks at most once.
    private static let searchedWithoutList = Locked<[String: Result<Set<SocialService>, ShareError>]>([:])

    /// The services with an item in the Secret Service, from one attributes-only search; nil when
    /// none answers and that is allowed (not `SHARESHEET_SECRET_STORE=secret-service`).
    private func searchSecretService() throws -> Set<SocialService>? {
        do {
            return Set(try SecretService.search().compactMap { SocialService(rawValue: $0.service) })
        } catch let failure as SecretService.Failure {
            if preference == .secretService || !failure.unreachable {
                throw ShareError(.ioError, "the Secret Service failed: \(failure.message)")
            }
            return nil
        }
    }

    // MARK: Reading tokens

    /// The token for `service`, or nil when none is kept: the environment, the Secret Service
    /// (which may prompt to unlock a locked keyring), the tokens file.
    /// - Throws: `ShareError(.ioError)` when the tokens file can be read by others or is damaged.
    public func token(for service: SocialService) throws -> StoredToken? {
        if let value = environment[Self.environmentName(service)], !value.isEmpty {
            return StoredToken(secret: value, location: .environment)
        }
        if triesSecretService {
            do {
                if let found = try SecretService.lookup(service: service.rawValue) {
                    return StoredToken(secret: found, location: .secretService)
                }
            } catch let failure as SecretService.Failure {
                if preference == .secretService || !failure.unreachable {
                    throw ShareError(.ioError, "\(service): the Secret Service failed: \(failure.message)")
                }
            }
        }
        if let found = try readFile()[service.rawValue] { return StoredToken(secret: found, location: .file) }
        return nil
    }

    /// The token to post with, for an account ``account(for:)`` found in `location`.
    /// - Throws: `ShareError(.unavailable)` with one line naming the service and the fix when the
    ///   token cannot be read any more: its keyring is locked (and was not unlocked), its item
    ///   was removed, the Secret Service no longer answers, or it left the tokens file.
    public func tokenForPosting(to service: SocialService, keptIn location: Location) throws -> StoredToken {
        if let token = try token(for: service) { return token }
        let name = service.displayName
        let account = ShareError.Setting(group: "accounts", service.rawValue)
        switch location {
        case .secretService:
            let found: [SecretService.Entry]
            do {
                found = try SecretService.search().filter { $0.service == service.rawValue }
            } catch {
                throw ShareError(
                    .unavailable,
                    "\(service): the Secret Service does not answer (start the keyring, gnome-keyring-daemon), "
                        + "so the \(name) token cannot be read",
                    setting: account, fix: .addAccount)
            }
            if found.isEmpty {
                index.replace(with: (index.read() ?? []).subtracting([service]))
                throw ShareError(
                    .unavailable, "\(service): the \(name) account is no longer in the Secret Service (it was removed)",
                    setting: account, fix: .addAccount)
            }
            if found.contains(where: \.locked) {
                throw ShareError(
                    .unavailable,
                    "\(service): the \(name) token is in a locked keyring: unlock it (in Passwords and Keys, "
                        + "or by logging in again) and share again")
            }
            throw ShareError(
                .unavailable, "\(service): the Secret Service did not give the \(name) token", setting: account, fix: .addAccount)
        case .file:
            throw ShareError(
                .unavailable, "\(service): the \(name) account is no longer in \(tokensFile.path)", setting: account,
                fix: .addAccount, path: tokensFile.path)
        case .environment:
            throw ShareError(.unavailable, "\(service): no account", setting: account, fix: .addAccount)
        }
    }

    // MARK: Writing

    /// Keeps `token` for `service`, in the Secret Service when one answers, else in the file.
    /// - Returns: where it was kept.
    @discardableResult
    public func save(_ token: String, for service: SocialService) throws -> Location {
        let token = token.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty, !token.contains("\n") else {
            throw ShareError(.badData, "\(service): the token is empty or has more than one line")
        }
        if triesSecretService {
            do {
                try SecretService.store(token, service: service.rawValue, label: "ShareSheet: \(service.displayName) account")
                // A stale copy in the file would be found after the keyring one is removed.
                _ = try? removeFromFile(service)
                relist(adding: service)
                return .secretService
            } catch let failure as SecretService.Failure {
                if preference == .secretService || !failure.unreachable {
                    throw ShareError(.ioError, "\(service): the Secret Service failed: \(failure.message)")
                }
            }
        }
        var tokens = try readFile()
        tokens[service.rawValue] = token
        try writeFile(tokens)
        return .file
    }

    /// Forgets the token of `service` wherever it is kept.
    /// - Returns: true when one was removed.
    @discardableResult
    public func remove(_ service: SocialService) throws -> Bool {
        var removed = false
        if triesSecretService {
            do {
                removed = try SecretService.clear(service: service.rawValue)
                relist(removing: service)
            } catch let failure as SecretService.Failure {
                if preference == .secretService || !failure.unreachable {
                    throw ShareError(.ioError, "\(service): the Secret Service failed: \(failure.message)")
                }
            }
        }
        return try removeFromFile(service) || removed
    }

    /// Rewrites the list of Secret Service accounts after a change: from a search when one
    /// answers, else the old list with the change.
    private func relist(adding added: SocialService? = nil, removing removed: SocialService? = nil) {
        var services = (try? searchSecretService()) ?? index.read() ?? []
        if let added { services.insert(added) }
        if let removed { services.remove(removed) }
        index.replace(with: services)
    }

    @discardableResult
    private func removeFromFile(_ service: SocialService) throws -> Bool {
        var tokens = try readFile()
        guard tokens.removeValue(forKey: service.rawValue) != nil else { return false }
        try writeFile(tokens)
        return true
    }

    // MARK: The tokens file

    private func readFile() throws -> [String: String] {
        var info = stat()
        guard stat(tokensPath, &info) == 0 else {
            if errno == ENOENT { return [:] }
            throw ShareError(.ioError, "\(tokensPath): \(String(cString: strerror(errno)))")
        }
        guard info.st_uid == getuid(), info.st_mode & 0o077 == 0 else {
            throw ShareError(
                .ioError,
                "\(tokensPath): other users can read it, so its tokens are not used", fix: .protectFile, path: tokensPath)
        }
        let tokens = try FileCache.value(at: tokensPath) { () -> [String: String] in
            let data = try Data(contentsOf: tokensFile)
            guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: String] else {
                throw ShareError(.badData, "\(tokensPath): not a tokens file (a JSON object of strings)")
            }
            return object
        }
        return tokens ?? [:]
    }

    private func writeFile(_ tokens: [String: String]) throws {
        let folder = tokensFile.deletingLastPathComponent()
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let data = try JSONSerialization.data(withJSONObject: tokens, options: [.sortedKeys])
        try AtomicFile.write(data, to: tokensFile, permissions: 0o600)
    }
}
