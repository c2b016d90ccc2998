import Foundation
import ShareSheet

/// Asks a Mastodon instance whose token a token is (`GET /api/v1/accounts/verify_credentials`),
/// so that `share accounts add mastodon` keeps only a token the instance takes.
public enum MastodonAccountCheck {
    /// The instance's `@username` for `token`.
    /// - Parameter instance: the instance's base URL (`SocialService.apiBase(in:)`, or what the
    ///   person typed, through ``instanceURL(_:)``).
    /// - Throws: `ShareError(.configuration)` when the instance refuses the token (401) or the
    ///   address answers but is no Mastodon API; `.temporaryFailure` when it cannot be reached.
    public static func username(token: String, instance: URL) async throws -> String {
        let session = ServiceSession(service: .mastodon)
        let request = HTTPRequest(
            "GET", URL(string: instance.absoluteString + "/api/v1/accounts/verify_credentials")!,
            headers: [("Authorization", "Bearer \(token)"), ("Accept", "application/json")])
        let response: HTTPResponse
        do {
            // A 401 is read here, not by the session: its own sentence is for a token that
            // worked once ("expired or revoked"), while this one was never taken.
            response = try await session.send(request, what: "checking the token", idempotent: true) { answer in
                answer.status == 401 ? .success : ServiceSession.standardMeaning(answer)
            }
        } catch let error as ShareError where error.kind == .temporaryFailure {
            throw ShareError(.temporaryFailure, error.message.replacingOccurrences(of: "nothing was posted", with: "nothing kept"))
        } catch let error as ShareError where error.kind == .unavailable {
            throw ShareError(.configuration, "\(error.message) (is \(instance.absoluteString) a Mastodon instance?); nothing kept")
        }
        if response.status == 401 {
            let reason = ["error_description", "error", "detail"].lazy.compactMap { response.json?[$0] as? String }.first
            throw ShareError(
                .configuration,
                "mastodon: the instance refused the token (401 \(reason ?? "Unauthorized"), \(instance.host ?? instance.absoluteString)); nothing kept")
        }
        guard let username = (response.json?["acct"] ?? response.json?["username"]) as? String, !username.isEmpty else {
            throw ShareError(
                .configuration,
                "mastodon: \(instance.absoluteString) answered verify_credentials without an account (is it a Mastodon instance?); nothing kept")
        }
        return username
    }

    /// `mastodon.example` or `https://mastodon.example/` as an instance's base URL; nil when it
    /// is no http(s) address with a host.
    public static func instanceURL(_ text: String) -> URL? { SocialService.baseURL(text) }
}
