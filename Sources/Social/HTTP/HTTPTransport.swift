import Foundation
import ShareSheet

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP request as the services build it.
struct HTTPRequest: Sendable {
    var method: String
    var url: URL
    var headers: [(String, String)] = []
    var body: Data?

    init(_ method: String, _ url: URL, headers: [(String, String)] = [], body: Data? = nil) {
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
    var description: String { reason }
}

/// Sends requests with URLSession, one at a time per call, cancelled with the calling task.
final class HTTPTransport: Sendable {
    private let session: URLSession

    init(timeout: TimeInterval = 60) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration)
    }

    /// Sends `request` and waits for the whole response.
    /// - Throws: `NetworkFailure` when no response came; `CancellationError` when the task was cancelled.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.addValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        let holder = Locked<URLSessionDataTask?>(nil)
        let cancelled = Locked(false)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, any Error>) in
                let task = session.dataTask(with: urlRequest) { data, response, error in
                    if let error {
                        if cancelled.withLock({ $0 }) {
                            continuation.resume(throwing: CancellationError())
                        } else {
                            continuation.resume(throwing: Self.failure(error))
                        }
                        return
                    }
                    guard let http = response as? HTTPURLResponse else {
                        continuation.resume(throwing: NetworkFailure(reason: "no HTTP response", mayHaveBeenSent: true))
                        return
                    }
                    var headers: [String: String] = [:]
                    for (name, value) in http.allHeaderFields {
                        if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
                    }
                    continuation.resume(returning: HTTPResponse(status: http.statusCode, headers: headers, body: data ?? Data()))
                }
                holder.withLock { $0 = task }
                task.resume()
                if cancelled.withLock({ $0 }) { task.cancel() }
            }
        } onCancel: {
            cancelled.withLock { $0 = true }
            holder.withLock { $0?.cancel() }
        }
    }

    private static func failure(_ error: any Error) -> NetworkFailure {
        guard let urlError = error as? URLError else {
            return NetworkFailure(reason: (error as NSError).localizedDescription, mayHaveBeenSent: true)
        }
        switch urlError.code {
        case .cannotConnectToHost:
            return NetworkFailure(reason: "cannot connect to the server", mayHaveBeenSent: false)
        case .cannotFindHost, .dnsLookupFailed:
            return NetworkFailure(reason: "the server's name does not resolve", mayHaveBeenSent: false)
        case .notConnectedToInternet:
            return NetworkFailure(reason: "not connected to a network", mayHaveBeenSent: false)
        case .timedOut:
            return NetworkFailure(reason: "the server did not answer in time", mayHaveBeenSent: true)
        case .networkConnectionLost:
            return NetworkFailure(reason: "the connection was lost", mayHaveBeenSent: true)
        default:
            return NetworkFailure(reason: "the connection failed (\(urlError.code.rawValue))", mayHaveBeenSent: true)
        }
    }
}

/// A `multipart/form-data` body (RFC 7578).
struct MultipartBody {
    let boundary = "sharesheet-" + UUID().uuidString
    private(set) var data = Data()

    var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    mutating func add(field name: String, _ value: String) {
        data.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n".utf8))
        data.append(Data(value.utf8))
        data.append(Data("\r\n".utf8))
    }

    mutating func add(file name: String, filename: String, mimeType: String, contents: Data) {
        let safeName = filename.replacingOccurrences(of: "\"", with: "_").replacingOccurrences(of: "\r", with: "_")
            .replacingOccurrences(of: "\n", with: "_")
        data.append(
            Data(
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"\(safeName)\"\r\nContent-Type: \(mimeType)\r\n\r\n"
                    .utf8))
        data.append(contents)
        data.append(Data("\r\n".utf8))
    }

    func finished() -> Data {
        var whole = data
        whole.append(Data("--\(boundary)--\r\n".utf8))
        return whole
    }
}
