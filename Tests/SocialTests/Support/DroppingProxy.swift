import Foundation
import LocalTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A loopback proxy in front of a server that, for the first `drop` requests whose request line
/// starts with `prefix`, forwards the request, waits for the whole answer, and then closes the
/// connection without passing the answer on: the server did the work, the client never heard.
final class DroppingProxy: @unchecked Sendable {
    let peer: PythonPeer

    private let logURL: URL

    init(upstreamPort: Int, prefix: String, drop: Int) throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("social-proxy-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        logURL = log
        peer = try PythonPeer(fixture: "dropping-proxy", arguments: [String(upstreamPort), prefix, String(drop), log.path])
    }

    var baseURL: URL { peer.baseURL }

    /// "DROPPED POST /api/v1/statuses HTTP/1.1", "PASSED …", in order.
    var log: [String] {
        ((try? String(contentsOf: logURL, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    func stop() {
        peer.stop()
        try? FileManager.default.removeItem(at: logURL)
    }
}
