import CCurl
import Foundation

/// One transfer as the callers describe it: where, how, what to send, and the few protocol
/// options they need (SMTP envelope, TLS identity). `CurlClient` turns it into libcurl options.
public struct CurlTransfer: Sendable {
    /// The full URL (`https://host/api/v2/media`, `smtp://host:25`).
    public var url: String
    /// The HTTP method; nil picks GET without a body and POST with one.
    public var method: String?
    /// Request headers, sent in order. `Expect:` is always sent empty (no 100-continue wait).
    public var headers: [(String, String)]
    /// What is sent.
    public var body: CurlBody
    /// Seconds to wait for the connection; 0 is libcurl's default.
    public var connectTimeout: Int
    /// Seconds the whole transfer may take; 0 means no limit.
    public var totalTimeout: Int
    /// A transfer slower than 1 byte/s for this many seconds counts as stalled; 0 never does.
    public var stallTimeout: Int
    /// The largest answer body kept; a longer one fails the transfer (CURLE_WRITE_ERROR).
    public var responseLimit: Int
    /// Sends the body with CURLOPT_UPLOAD (SMTP, PUT) instead of as a POST body.
    public var uploads: Bool
    /// Unix line ends in the body become CRLF (SMTP).
    public var convertsLineEnds: Bool
    /// SMTP's envelope: `MAIL FROM` and the `RCPT TO` list, each already in angle brackets.
    public var mailFrom: String?
    public var mailRecipients: [String]
    /// The login (SMTP AUTH, HTTP basic).
    public var user: String?
    public var password: String?
    /// TLS: STARTTLS for mail (`CURLUSESSL_*`), a CA file, our client certificate and key, and
    /// whether the host name must match the certificate.
    public var useSSL: curl_usessl?
    public var caFile: String?
    public var clientCertificate: String?
    public var clientKey: String?
    public var verifiesHost: Bool
    /// Replaces libcurl's certificate check (LocalSend pins certificates by fingerprint).
    public var tlsContextHook: CurlTLSContextHook?
    /// Where the answer's body goes as it arrives, instead of memory (a download of any size;
    /// `responseLimit` does not apply): the file is created or emptied, mode 0600.
    public var responseFile: URL?
    /// Follows `Location` redirects, at most 10 (a download link that points on to a mirror).
    public var followsRedirects: Bool
    /// Told the byte counts about once a second and after each piece; false stops the transfer.
    public var onProgress: (@Sendable (CurlCounts) -> Bool)?

    /// Describes a transfer to `url`.
    public init(
        url: String, method: String? = nil, headers: [(String, String)] = [], body: CurlBody = .none,
        connectTimeout: Int = 30, totalTimeout: Int = 0, stallTimeout: Int = 60, responseLimit: Int = 16 << 20
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.stallTimeout = stallTimeout
        self.responseLimit = responseLimit
        uploads = false
        convertsLineEnds = false
        mailRecipients = []
        verifiesHost = true
        followsRedirects = false
    }

    /// Reports the bytes sent into `progress` (a `.file` progress counting bytes): its completed
    /// count becomes `base` plus what this transfer has sent, at most `limit` of it (a form's
    /// boundaries and part headers are not the file's bytes).
    public mutating func reportUpload(into progress: Progress, base: Int64 = 0, limit: Int64? = nil) {
        let previous = onProgress
        onProgress = { counts in
            let sent = limit.map { min(counts.uploaded, $0) } ?? counts.uploaded
            if progress.completedUnitCount != base + sent { progress.completedUnitCount = base + sent }
            return previous?(counts) ?? true
        }
    }
}

/// What a transfer sends.
public enum CurlBody: Sendable {
    /// No body (GET, HEAD, an empty POST with `method: "POST"`).
    case none
    /// Bytes in memory (JSON, a form-encoded body).
    case data(Data)
    /// A whole file, streamed from disk.
    case file(URL)
    /// `length` bytes of a file from `offset` (one chunk of a resumable upload), streamed.
    case fileRange(URL, offset: Int64, length: Int64)
    /// Bytes a caller produces while libcurl asks for them; `size` nil for an upload of unknown length.
    case stream(any CurlBodySource, size: Int64?)
    /// A `multipart/form-data` body built by libcurl's MIME API; file parts are read from disk
    /// as they are sent.
    case form([CurlFormPart])
}

/// One part of a `multipart/form-data` body (RFC 7578).
public enum CurlFormPart: Sendable {
    /// A text field.
    case field(name: String, value: String)
    /// A file read from disk while it is sent, under the name the server sees.
    case file(name: String, filename: String, mimeType: String, url: URL)
    /// Bytes already in memory, sent as a file.
    case data(name: String, filename: String, mimeType: String, data: Data)
}

/// Produces a body piece by piece on libcurl's thread.
public protocol CurlBodySource: AnyObject, Sendable {
    /// Fills `buffer` with at most `capacity` bytes and returns how many; 0 at the end.
    /// - Throws: `CancellationError` to stop the transfer as cancelled (`CURLE_ABORTED_BY_CALLBACK`);
    ///   any other error stops it and is reported as `CurlError.readFailure`.
    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) throws -> Int
}

/// Byte counts of a running transfer, as libcurl reports them (totals 0 while unknown).
public struct CurlCounts: Sendable, Equatable {
    public var downloadTotal: Int64
    public var downloaded: Int64
    public var uploadTotal: Int64
    public var uploaded: Int64
}

/// A C callback that gets the OpenSSL `SSL_CTX` before the handshake, with its context pointer.
/// The caller keeps `context` alive for the transfer.
public struct CurlTLSContextHook: @unchecked Sendable {
    public var callback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> CURLcode
    public var context: UnsafeMutableRawPointer

    public init(
        callback: @escaping @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> CURLcode,
        context: UnsafeMutableRawPointer
    ) {
        self.callback = callback
        self.context = context
    }
}
