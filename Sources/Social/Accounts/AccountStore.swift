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

    /// The store of the user running this process.
    public init(
        directories: XDGDirectories = HostEnvironment.process.directories,
        environment: [String: String] = HostEnvironment.process.variables
    ) {
        self.environment = environment
        tokensFile = directories.configHome.appendingPathComponent("sharesheet/tokens")
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

    // MARK: Reading

    /// The token for `service`, or nil when none is kept.
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

    /// True when a token is kept for `service`; a store that cannot be read counts as none.
    public func hasToken(for service: SocialService) -> Bool {
        ((try? token(for: service)) ?? nil) != nil
    }

    /// The services with a kept token and where each is.
    public func list() throws -> [(service: SocialService, location: Location)] {
        try SocialService.allCases.compactMap { service in
            try token(for: service).map { (service, $0.location) }
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
            } catch let failure as SecretService.Failure {
                if preference == .secretService || !failure.unreachable {
                    throw ShareError(.ioError, "\(service): the Secret Service failed: \(failure.message)")
                }
            }
        }
        return try removeFromFile(service) || removed
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
        guard stat(tokensFile.path, &info) == 0 else {
            if errno == ENOENT { return [:] }
            throw ShareError(.ioError, "\(tokensFile.path): \(String(cString: strerror(errno)))")
        }
        guard info.st_uid == getuid(), info.st_mode & 0o077 == 0 else {
            throw ShareError(
                .ioError,
                "\(tokensFile.path): other users can read it, so its tokens are not used; "
                    + "run chmod 600 on it, or share accounts add again")
        }
        let data = try Data(contentsOf: tokensFile)
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: String] else {
            throw ShareError(.badData, "\(tokensFile.path): not a tokens file (a JSON object of strings)")
        }
        return object
    }

    private func writeFile(_ tokens: [String: String]) throws {
        let folder = tokensFile.deletingLastPathComponent()
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let data = try JSONSerialization.data(withJSONObject: tokens, options: [.sortedKeys])
        try AtomicFile.write(data, to: tokensFile, permissions: 0o600)
    }
}
