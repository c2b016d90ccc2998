import CCurl
import CurlClient
import Foundation
import ShareSheet

/// One HTTP request as the services build it.
struct HTTPRequest: Sendable {
    var method: String
    var url: URL
    var headers: [(String, String)] = []
    /// What is sent: nothing, bytes, a file's range, or a `multipart/form-data` form.
    var body: CurlBody
    /// Where the bytes sent are counted, if anywhere.
    var uploadProgress: UploadProgress?

    /// Counts an upload's bytes into a `.file` progress: `base` plus what was sent, at most `limit`.
    struct UploadProgress: Sendable {
        var progress: Progress
        var base: Int64
        var limit: Int64
    }

    init(_ method: String, _ url: URL, headers: [(String, String)] = [], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body.map { .data($0) } ?? .none
    }

    /// A `multipart/form-data` request (RFC 7578), built by libcurl; file parts are streamed from disk.
    init(_ method: String, _ url: URL, headers: [(String, String)] = [], form: [CurlFormPart]) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = .form(form)
    }

    /// A request whose body is some other kind of `CurlBody` (a file's range).
    init(_ method: String, _ url: URL, headers: [(String, String)] = [], streaming body: CurlBody) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// One HTTP response: status, headers by lowercased name, body.
struct HTTPResponse: Sendable {
    var status: Int
    var headers: [String: String]
    var body: Data

    func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The body as a JSON object, or nil.
    var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] }

    /// The body as text, cut to one line of at most 200 characters, for error messages.
    var snippet: String {
        let text = String(decoding: body.prefix(400), as: UTF8.self)
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return line.count > 200 ? String(line.prefix(199)) + "…" : line
    }

    var isSuccess: Bool { (200..<300).contains(status) }
}

/// The request never got an answer.
struct NetworkFailure: Error, CustomStringConvertible {
    /// What went wrong, in words.
    var reason: String
    /// False only when the request certainly never left (no connection could be made).
    var mayHaveBeenSent: Bool
    /// libcurl's code and text, for `--verbose` and bug reports.
    var curl: CurlError?
    var description: String { reason }
}

/// Sends requests through the shared libcurl client, one at a time per call, on a thread of
/// their own, cancelled with the calling task.
final class HTTPTransport: Sendable {
    /// Seconds without a byte moving before a request counts as stalled.
    private let timeout: Int

    init(timeout: TimeInterval = 60) {
        self.timeout = max(Int(timeout.rounded(.up)), 1)
    }

    /// Sends `request` and waits for the whole response.
    /// - Throws: `NetworkFailure` when no response came; `CancellationError` when the task was
    ///   cancelled; `ShareError(.noInput)` when a file to upload cannot be read.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var transfer = CurlTransfer(
            url: request.url.absoluteString, method: request.method, headers: request.headers, body: request.body,
            connectTimeout: min(timeout, 30), stallTimeout: timeout)
        if let upload = request.uploadProgress {
            transfer.reportUpload(into: upload.progress, base: upload.base, limit: upload.limit)
        }
        do {
            let response = try await CurlClient.send(transfer)
            return HTTPResponse(status: response.status, headers: response.headers, body: response.body)
        } catch let error as CurlError {
            if let readFailure = error.readFailure { throw ShareError(.noInput, readFailure) }
            throw Self.failure(error)
        }
    }

    private static func failure(_ error: CurlError) -> NetworkFailure {
        let reason: String
        switch error.code {
        case CURLE_COULDNT_CONNECT: reason = "cannot connect to the server"
        case CURLE_COULDNT_RESOLVE_HOST: reason = "the server's name does not resolve"
        case CURLE_OPERATION_TIMEDOUT: reason = "the server did not answer in time"
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE:
            reason = "the connection was lost"
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CACERT_BADFILE:
            reason = "the secure connection failed: \(error.description)"
        default: reason = "the connection failed (curl \(error.number): \(error.text))"
        }
        return NetworkFailure(reason: reason, mayHaveBeenSent: !error.neverConnected, curl: error)
    }
}

extension SocialAttachment {
    /// This attachment as a part of a `multipart/form-data` form: a file is read from disk while
    /// it is sent, never loaded whole.
    func formPart(name: String) -> CurlFormPart {
        switch source {
        case .file(let url): return .file(name: name, filename: filename, mimeType: mimeType, url: url)
        case .data(let data): return .data(name: name, filename: filename, mimeType: mimeType, data: data)
        }
    }
}
