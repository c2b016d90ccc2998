import CCurl
import Foundation
import ShareSheet

/// What a service's answer means, decided by the service's own error format.
enum AnswerMeaning {
    /// It worked.
    case success
    /// The token was refused: expired, revoked or wrong.
    case tokenRefused
    /// Too many requests; wait this many seconds when the server says.
    case rateLimited(retryAfter: Int?)
    /// Any other failure, with the service's own words.
    case failed(String)
}

/// Sends a service's requests with the rules a person can act on: a refused token says how to
/// add the account again, a rate limit is waited out once (as long as the server asks, up to a
/// cap) and then reported with the time to wait, and a request that may have reached the server
/// is sent again only when it is safe to (idempotent, or the connection was never made).
struct ServiceSession: Sendable {
    let service: SocialService
    let transport: HTTPTransport
    /// The longest wait for a rate limit before failing at once.
    let maxRateLimitWait: Int
    /// Called instead of sleeping (tests watch the waits); nil sleeps for real.
    let sleeper: (@Sendable (Int) async throws -> Void)?
    /// What this post's requests did: whether one may have made something, and why the
    /// server was not reached.
    let ledger = PostLedger()

    init(
        service: SocialService, transport: HTTPTransport = HTTPTransport(), maxRateLimitWait: Int = 120,
        sleeper: (@Sendable (Int) async throws -> Void)? = nil
    ) {
        self.service = service
        self.transport = transport
        self.maxRateLimitWait = maxRateLimitWait
        self.sleeper = sleeper
    }

    /// Sends `request` and returns the successful answer.
    /// - Parameters:
    ///   - what: the step, for messages ("uploading photo.png", "posting").
    ///   - idempotent: true when sending it twice has the effect of sending it once (GET, HEAD,
    ///     an upload that only makes an unattached file, a post with an idempotency key).
    ///   - meaning: reads the service's answer.
    /// - Throws: a `ShareError` a person can act on.
    func send(
        _ request: HTTPRequest, what: String, idempotent: Bool, meaning: (HTTPResponse) -> AnswerMeaning
    ) async throws -> HTTPResponse {
        var waitedForRateLimit = false
        var resentAfterNetworkFailure = false
        while true {
            try Task.checkCancellation()
            let response: HTTPResponse
            do {
                response = try await transport.send(request)
            } catch let failure as NetworkFailure {
                if (idempotent || !failure.mayHaveBeenSent) && !resentAfterNetworkFailure {
                    resentAfterNetworkFailure = true
                    continue
                }
                let mayHaveArrived = failure.mayHaveBeenSent && !idempotent
                let outcome =
                    mayHaveArrived
                    ? "it may have reached \(service.displayName): check before you try again"
                    : "nothing was posted; try again later"
                let error = ShareError(.temporaryFailure, "\(service): \(what): \(failure.reason) (\(request.url.host ?? "")); \(outcome)")
                if mayHaveArrived {
                    ledger.noteCreated()
                } else {
                    ledger.noteUnreachable(error, nameDidNotResolve: failure.curl?.code == CURLE_COULDNT_RESOLVE_HOST)
                }
                throw error
            }
            switch meaning(response) {
            case .success:
                if !idempotent { ledger.noteCreated() }
                return response
            case .tokenRefused:
                // The fix is in the configuration (a new token), so it exits 78 (EX_CONFIG).
                throw ShareError(
                    .configuration,
                    "\(service): \(service.displayName) refused the account's token (expired or revoked)",
                    setting: .init(group: "accounts", service.rawValue), fix: .addAccount)
            case .rateLimited(let retryAfter):
                let wait = retryAfter ?? 60
                if !waitedForRateLimit, wait <= maxRateLimitWait {
                    waitedForRateLimit = true
                    try await pause(seconds: max(wait, 0))
                    continue
                }
                let error = ShareError(
                    .temporaryFailure,
                    "\(service): \(what): rate limited by \(service.displayName); try again in \(wait) s")
                // Refused before it was looked at: nothing was made.
                ledger.noteUnreachable(error, nameDidNotResolve: false)
                throw error
            case .failed(let reason):
                let kind: ShareError.Kind =
                    (500..<600).contains(response.status) ? .temporaryFailure : (response.status == 413 || response.status == 422 ? .badData : .unavailable)
                let error = ShareError(kind, "\(service): \(what): \(reason)")
                // A gateway's "the service is not there" (502, 503, 504): nothing was made. Any
                // other 5xx may come after the service did part of the work.
                if [502, 503, 504].contains(response.status) { ledger.noteUnreachable(error, nameDidNotResolve: false) }
                throw error
            }
        }
    }

    private func pause(seconds: Int) async throws {
        if let sleeper { return try await sleeper(seconds) }
        try await Task.sleep(nanoseconds: UInt64(seconds) * 1_000_000_000)
    }

    /// Seconds from a `Retry-After` header: a number, or an HTTP date.
    static func retryAfter(_ response: HTTPResponse) -> Int? {
        guard let value = response.header("Retry-After")?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Int(value) { return max(seconds, 0) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return max(Int(date.timeIntervalSinceNow.rounded(.up)), 0)
    }

    /// The usual meaning of an answer for JSON APIs that use HTTP status codes (Mastodon, X, Vimeo).
    static func standardMeaning(_ response: HTTPResponse, errorKeys: [String] = ["error", "detail", "title"]) -> AnswerMeaning {
        if response.isSuccess { return .success }
        switch response.status {
        case 401: return .tokenRefused
        case 429:
            if let after = retryAfter(response) { return .rateLimited(retryAfter: after) }
            if let reset = response.header("x-rate-limit-reset").flatMap(Int.init) {
                return .rateLimited(retryAfter: max(reset - Int(Date().timeIntervalSince1970), 0))
            }
            return .rateLimited(retryAfter: nil)
        default:
            let json = response.json
            let message = errorKeys.lazy.compactMap { json?[$0] as? String }.first ?? response.snippet
            return .failed("HTTP \(response.status): \(message)")
        }
    }
}
