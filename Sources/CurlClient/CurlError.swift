import CCurl
import Foundation

/// A failed transfer: libcurl's result code with its text and detail, the last reply code the
/// server sent, and why our own side stopped it when it did (cancelled, a file that cannot be read).
public struct CurlError: Error, Sendable, CustomStringConvertible {
    /// libcurl's `CURLcode`.
    public var code: CURLcode
    /// `curl_easy_strerror(code)`: the code's meaning ("Couldn't connect to server").
    public var text: String
    /// libcurl's error buffer: the detail of this failure ("Failed to connect to 127.0.0.1 port 9…"), or "".
    public var detail: String
    /// The last HTTP status or SMTP reply code (535 for a refused login); 0 when none came.
    public var responseCode: Int
    /// Set when a body could not be read: the file and the reason.
    public var readFailure: String?

    public init(code: CURLcode, detail: String = "", responseCode: Int = 0, readFailure: String? = nil) {
        self.code = code
        self.text = String(cString: curl_easy_strerror(code))
        self.detail = detail
        self.responseCode = responseCode
        self.readFailure = readFailure
    }

    /// The numeric code, as `curl` prints it.
    public var number: Int { Int(code.rawValue) }

    /// True when the transfer was stopped by a cancellation or a progress callback.
    public var isCancelled: Bool { code == CURLE_ABORTED_BY_CALLBACK && readFailure == nil }

    /// True when the request certainly never reached the server: no connection was made.
    public var neverConnected: Bool {
        code == CURLE_COULDNT_CONNECT || code == CURLE_COULDNT_RESOLVE_HOST || code == CURLE_COULDNT_RESOLVE_PROXY
            || code == CURLE_UNSUPPORTED_PROTOCOL || code == CURLE_URL_MALFORMAT
    }

    public var description: String {
        if let readFailure { return readFailure }
        return detail.isEmpty ? text : detail
    }
}
