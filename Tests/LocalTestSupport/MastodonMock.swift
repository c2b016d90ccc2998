import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// mastodon-mock (PyPI), the stateful Mastodon-API server, run as
/// `mastodon_mock serve --in-memory --host 127.0.0.1 --port PORT` and read back through its API.
public final class MastodonMock: @unchecked Sendable {
    /// The token of the account mastodon-mock seeds.
    public static let token = "mock_token"
    public let peer: PythonPeer

    /// Starts it on `port` (a server coming up where posts were sent while it was down), or
    /// on a free port.
    public init(port: Int? = nil) async throws {
        peer = try PythonPeer(fixture: "mastodon-mock", arguments: port.map { [String($0)] } ?? [])
        // Wait until it answers (it prints its port before uvicorn listens); a loaded machine
        // can take a while to import FastAPI.
        for _ in 0..<1200 {
            if let answer = try? await TestHTTP.request("GET", peer.baseURL.appendingPathComponent("api/v1/instance")),
                answer.status == 200
            {
                return
            }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        throw PeerError("mastodon_mock did not answer: \(peer.errorLog.suffix(2000))")
    }

    public var baseURL: URL { peer.baseURL }

    public func stop() { peer.stop() }

    private var authorization: [String: String] { ["Authorization": "Bearer \(Self.token)"] }

    /// The statuses of the seeded account, newest first, as mastodon-mock stores them.
    public func statuses() async throws -> [[String: Any]] {
        let me = try await TestHTTP.request(
            "GET", baseURL.appendingPathComponent("api/v1/accounts/verify_credentials"), headers: authorization)
        guard let id = (me.json as? [String: Any])?["id"] as? String else {
            throw PeerError("verify_credentials: \(String(decoding: me.body, as: UTF8.self))")
        }
        let answer = try await TestHTTP.request(
            "GET", baseURL.appendingPathComponent("api/v1/accounts/\(id)/statuses"), headers: authorization)
        return (answer.json as? [[String: Any]]) ?? []
    }

    /// Adds a fault rule through mastodon-mock's control plane.
    public func addFault(_ rule: [String: Any]) async throws {
        let answer = try await TestHTTP.request(
            "POST", baseURL.appendingPathComponent("api/v1/_mock/faults"), headers: ["Content-Type": "application/json"],
            body: try JSONSerialization.data(withJSONObject: rule))
        guard answer.status == 200 else {
            throw PeerError("fault rule refused: \(String(decoding: answer.body, as: UTF8.self))")
        }
    }
}
