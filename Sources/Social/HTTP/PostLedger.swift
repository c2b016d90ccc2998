import Foundation
import ShareSheet

/// What the requests of one post did so far, as far as whether it can wait and go again: a
/// post whose server could not be reached, before anything was made that a second attempt
/// would make twice, is queued (SPEC §14) instead of failing.
///
/// `ServiceSession` writes it as it sends; `SocialComposer` reads it when a post fails.
final class PostLedger: Sendable {
    /// Why the server was not reached: the last failure of that kind the session threw.
    struct Unreachable: Sendable {
        /// The error thrown, as a person reads it.
        var error: ShareError
        /// True when the server's name did not resolve: most likely this machine is offline.
        var nameDidNotResolve: Bool
    }

    private struct State {
        var unreachable: Unreachable?
        var mayHaveCreated = false
        var idempotencyKey: String?
    }

    private let state = Locked(State())

    /// True once a request that is not idempotent was answered, or may have reached the
    /// server: a second attempt could make a second post, a second video.
    var mayHaveCreated: Bool { state.withLock { $0.mayHaveCreated } }

    /// The last failure to reach the server, if any.
    var unreachable: Unreachable? { state.withLock { $0.unreachable } }

    /// The `Idempotency-Key` the post was sent with, when the service takes one (Mastodon).
    var idempotencyKey: String? {
        get { state.withLock { $0.idempotencyKey } }
        set { state.withLock { $0.idempotencyKey = newValue } }
    }

    func noteCreated() { state.withLock { $0.mayHaveCreated = true } }

    func noteUnreachable(_ error: ShareError, nameDidNotResolve: Bool) {
        state.withLock { $0.unreachable = Unreachable(error: error, nameDidNotResolve: nameDidNotResolve) }
    }
}
