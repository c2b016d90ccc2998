import Foundation
import LocalTestSupport

/// Local stand-ins for the services that cannot run offline (X, Facebook, Weibo, Flickr,
/// Vimeo), written from their API documentation: each checks the method, path, headers and
/// body fields a real server needs, answers in the documented shape, and answers errors in the
/// documented shape too. The token decides the behaviour: `expired` is refused the service's
/// way, `limited` is rate limited, `flaky` (Vimeo) has its first upload cut off halfway.
/// Every request is logged as one JSON line for the test to read. The program is
/// `Tests/Fixtures/social/contract-server.py`.
final class ContractServer: @unchecked Sendable {
    let peer: PythonPeer

    /// The secrets the Flickr stand-in verifies signatures with.
    static let flickrConsumerSecret = "consumer-secret"
    static let flickrTokenSecret = "token-secret"

    private let logURL: URL

    /// Starts the stand-in for `service`.
    init(service: String) throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("social-contract-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        logURL = log
        peer = try PythonPeer(fixture: "contract-server", arguments: [service, log.path, log.deletingLastPathComponent().path])
    }

    var baseURL: URL { peer.baseURL }

    /// The requests it received, in order.
    var requests: [[String: Any]] {
        let text = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }

    func stop() {
        peer.stop()
        try? FileManager.default.removeItem(at: logURL)
    }
}

extension Dictionary where Key == String, Value == Any {
    /// A member of a logged request: `path`, `fields.message`, `headers.authorization`.
    subscript(path keyPath: String) -> Any? {
        var value: Any? = self
        for key in keyPath.split(separator: ".") { value = (value as? [String: Any])?[String(key)] }
        return value
    }
}
