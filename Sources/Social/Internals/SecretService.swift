import Foundation
import Secrets

/// Posting tokens in the Secret Service, kept by the shared `SecretStore` under its rules: items
/// carry `application=org.sharesheet` and `service=NAME` (`mastodon`, `twitter`…).
enum SecretService {
    typealias Failure = SecretStore.Failure
    typealias Entry = SecretStore.Entry

    /// True when a session bus is there to ask; without one libsecret is not tried at all.
    static func busIsPresent(environment: [String: String]) -> Bool {
        SecretStore.busIsPresent(environment: environment)
    }

    static func store(_ secret: String, service: String, label: String) throws {
        try SecretStore.store(secret, attributes: ["service": service], label: label)
    }

    /// Reads the secret of `service`'s item, unlocking its collection when it is locked (the
    /// Secret Service may prompt for the keyring's password). Only when a token is needed.
    static func lookup(service: String) throws -> String? {
        try SecretStore.lookup(attributes: ["service": service])
    }

    /// Every item of ours, locked or not, from its attributes; reads no secret, unlocks nothing.
    /// Items of other services (the SMTP password) are among them: callers keep the services they know.
    static func search() throws -> [Entry] {
        try SecretStore.search()
    }

    /// - Returns: true when an item was removed.
    static func clear(service: String) throws -> Bool {
        try SecretStore.clear(attributes: ["service": service])
    }
}
