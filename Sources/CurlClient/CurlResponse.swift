import Foundation

/// A transfer's answer: the status (HTTP status, or the last SMTP reply), the headers of the
/// final response by lowercased name, and the body.
public struct CurlResponse: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A header's value, by any case of its name.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}
