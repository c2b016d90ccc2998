import Foundation
import ShareSheet

/// A post that did not go because its server could not be reached, before anything was made
/// that a second attempt would make twice: it can wait in the share queue and go later.
///
/// Thrown only for that: no connection, no name, no answer in time on a request that is safe
/// to send again, a gateway's 502/503/504, or a rate limit that lasts. A refused token (401),
/// a refused post (403, 422) or a cancel are never this: those the person must see now.
struct PostNotReached: Error {
    /// The error as it would have been reported.
    var error: ShareError
    /// The server's host, for words such as "example.social cannot be reached".
    var server: String
    /// True when the server's name did not resolve: most likely this machine is offline.
    var offline: Bool
    /// The `Idempotency-Key` the post was sent with, kept with the queued post.
    var idempotencyKey: String?

    /// The post that failed with `error` can wait when the ledger says the server was not
    /// reached with that very error and nothing may have been made; nil otherwise.
    init?(_ error: ShareError, ledger: PostLedger, server: URL) {
        guard let unreachable = ledger.unreachable, unreachable.error == error, !ledger.mayHaveCreated else { return nil }
        self.error = error
        self.server = server.host ?? server.absoluteString
        offline = unreachable.nameDidNotResolve
        idempotencyKey = ledger.idempotencyKey
    }

    /// Why the post waits, as a sentence for the queue's list.
    var reason: String {
        offline ? "\(server)'s name did not resolve: this computer seemed to be offline." : "\(server) could not be reached."
    }

    /// What the sheet says instead of a failure. A name that does not resolve is said as being
    /// offline, with the name, since a misspelled server fails the same way.
    var fallback: ActivityFallback {
        let message =
            offline
            ? "You seem to be offline (\(server)'s name does not resolve); the post will go when you are back online."
            : "\(server) cannot be reached now; the post will go when it can."
        return ActivityFallback(message: message, fix: .flushOutbox)
    }
}
