import CCurl
import CCurlShims
import COpenSSL
import Foundation

/// What a request sends as its body.
enum RequestBody: Sendable {
    /// No body.
    case none
    /// Bytes in memory (JSON, a text message).
    case data(Data)
    /// A whole file, streamed from disk without loading it.
    case file(URL, size: Int64)
}

/// An HTTP(S) answer: status and body (LocalSend's answers are small JSON documents).
struct HTTPAnswer: Sendable {
    var status: Int
    var body: Data
}

/// A failed request: the libcurl code and message, or the pinning verdict.
struct TransferError: Error, Sendable, CustomStringConvertible {
    enum Reason: Sendable, Equatable {
        /// The peer's certificate is not the one its fingerprint names.
        case fingerprintMismatch(expected: String, actual: String)
        /// The transfer was stopped by `cancel`.
        case cancelled
        /// A file could not be read.
        case unreadable(String)
        /// libcurl failed (connect, TLS, timeout…).
        case curl(code: Int32, message: String)
    }

    var reason: Reason

    var description: String {
        switch reason {
        case .fingerprintMismatch(let expected, let actual):
            return "its certificate (SHA-256 \(actual.prefix(16))…) is not the one it announced (\(expected.prefix(16))…)"
        case .cancelled: return "cancelled"
        case .unreadable(let message): return message
        case .curl(_, let message): return message
        }
    }
}

/// How a request trusts the server.
enum ServerTrust: Sendable {
    /// Plain HTTP (a peer that announced `protocol: http`); nothing to verify.
    case plainHTTP
    /// HTTPS, accepted only when the SHA-256 of the certificate's DER bytes equals this
    /// fingerprint (uppercase hex), the way LocalSend identifies devices.
    case pinned(String)
    /// HTTPS to a peer whose fingerprint is not known yet (a typed address): any certificate is
    /// accepted for this one request, and its fingerprint is reported in `learnedFingerprint`
    /// so every later request pins it.
    case learn
}

/// One libcurl easy transfer with the LocalSend trust model, run synchronously on the calling
/// thread. The only place this module calls libcurl.
final class CurlRequest: @unchecked Sendable {
    private static let globalInit: Void = { _ = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    /// The state the C callbacks reach through their context pointer.
    final class CallbackState {
        let expectedFingerprint: String?
        var observedFingerprint: String?
        var response = Data()
        var bodyData: Data?
        var bodyOffset = 0
        var fileDescriptor: Int32 = -1
        var readError: String?
        let onProgress: (Int64) -> Bool
        var cancelled = false

        init(expectedFingerprint: String?, onProgress: @escaping (Int64) -> Bool) {
            self.expectedFingerprint = expectedFingerprint
            self.onProgress = onProgress
        }
    }

    /// Sends one request and waits for its answer.
    /// - Parameters:
    ///   - url: the full URL (`https://10.0.0.2:53317/api/localsend/v2/…`).
    ///   - trust: how the server's certificate is checked.
    ///   - clientIdentity: our own certificate and key (PEM files), presented when the server asks.
    ///   - connectTimeout / totalTimeout: seconds; 0 means none.
    ///   - onProgress: called with the bytes of the body sent so far; return false to stop.
    /// - Returns: the answer and, for `.learn`, the fingerprint of the server's certificate.
    static func perform(
        url: String, body: RequestBody, contentType: String? = nil, trust: ServerTrust,
        clientIdentity: (certificate: URL, key: URL)? = nil, connectTimeout: Int = 5, totalTimeout: Int = 0,
        onProgress: @escaping (Int64) -> Bool = { _ in true }
    ) throws(TransferError) -> (answer: HTTPAnswer, learnedFingerprint: String?) {
        _ = globalInit
        guard let handle = curl_easy_init() else {
            throw TransferError(reason: .curl(code: -1, message: "cannot start libcurl"))
        }
        defer { curl_easy_cleanup(handle) }

        let expected: String?
        if case .pinned(let fingerprint) = trust { expected = fingerprint.uppercased() } else { expected = nil }
        let state = CallbackState(expectedFingerprint: expected, onProgress: onProgress)
        let context = Unmanaged.passRetained(state)
        defer { context.release() }
        let contextPointer = context.toOpaque()

        var headers: UnsafeMutablePointer<curl_slist>?
        headers = curl_slist_append(headers, "Expect:")
        if let contentType { headers = curl_slist_append(headers, "Content-Type: \(contentType)") }
        defer { curl_slist_free_all(headers) }

        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        var code = errorBuffer.withUnsafeMutableBufferPointer { errorPointer -> CURLcode in
            ccurl_setopt_string(handle, CURLOPT_URL, url)
            ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
            ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorPointer.baseAddress)
            ccurl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT, connectTimeout)
            ccurl_setopt_long(handle, CURLOPT_TIMEOUT, totalTimeout)
            ccurl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0)
            ccurl_setopt_slist(handle, CURLOPT_HTTPHEADER, headers)
            ccurl_setopt_pointer(handle, CURLOPT_WRITEDATA, contextPointer)
            ccurl_setopt_pointer(handle, CURLOPT_WRITEFUNCTION, unsafeBitCast(writeCallback, to: UnsafeMutableRawPointer.self))
            ccurl_setopt_long(handle, CURLOPT_NOPROGRESS, 0)
            ccurl_setopt_pointer(handle, CURLOPT_XFERINFODATA, contextPointer)
            ccurl_setopt_pointer(
                handle, CURLOPT_XFERINFOFUNCTION, unsafeBitCast(progressCallback, to: UnsafeMutableRawPointer.self))

            if url.hasPrefix("https:") {
                switch trust {
                case .plainHTTP:
                    break
                case .pinned, .learn:
                    // Verification stays on: the certificate check itself is replaced by the
                    // fingerprint comparison (self-signed certificates have no chain to check),
                    // and the host name is not checked because LocalSend certificates name no host.
                    ccurl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1)
                    ccurl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 0)
                    // A resumed TLS session skips certificate verification: never resume.
                    ccurl_setopt_long(handle, CURLOPT_SSL_SESSIONID_CACHE, 0)
                    ccurl_setopt_pointer(handle, CURLOPT_SSL_CTX_DATA, contextPointer)
                    ccurl_setopt_pointer(
                        handle, CURLOPT_SSL_CTX_FUNCTION, unsafeBitCast(sslContextCallback, to: UnsafeMutableRawPointer.self))
                }
                if let clientIdentity {
                    ccurl_setopt_string(handle, CURLOPT_SSLCERT, clientIdentity.certificate.path)
                    ccurl_setopt_string(handle, CURLOPT_SSLKEY, clientIdentity.key.path)
                }
            }

            switch body {
            case .none:
                ccurl_setopt_long(handle, CURLOPT_POST, 1)
                ccurl_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, 0)
                ccurl_setopt_pointer(handle, CURLOPT_READDATA, contextPointer)
                ccurl_setopt_read_function(handle, readCallback)
            case .data(let data):
                state.bodyData = data
                ccurl_setopt_long(handle, CURLOPT_POST, 1)
                ccurl_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(data.count))
                ccurl_setopt_pointer(handle, CURLOPT_READDATA, contextPointer)
                ccurl_setopt_read_function(handle, readCallback)
            case .file(let fileURL, let size):
                let descriptor = open(fileURL.path, O_RDONLY | O_CLOEXEC)
                guard descriptor >= 0 else {
                    state.readError = "\(fileURL.lastPathComponent): \(String(cString: strerror(errno)))"
                    return CURLE_READ_ERROR
                }
                state.fileDescriptor = descriptor
                ccurl_setopt_long(handle, CURLOPT_POST, 1)
                ccurl_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(size))
                ccurl_setopt_pointer(handle, CURLOPT_READDATA, contextPointer)
                ccurl_setopt_read_function(handle, readCallback)
                ccurl_setopt_long(handle, CURLOPT_UPLOAD_BUFFERSIZE, 512 * 1024)
            }
            return curl_easy_perform(handle)
        }
        if state.fileDescriptor >= 0 { close(state.fileDescriptor) }

        if let readError = state.readError { throw TransferError(reason: .unreadable(readError)) }
        if state.cancelled { throw TransferError(reason: .cancelled) }
        if let expected, let observed = state.observedFingerprint, observed != expected {
            throw TransferError(reason: .fingerprintMismatch(expected: expected, actual: observed))
        }
        if code != CURLE_OK {
            let detail = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let message = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
            throw TransferError(reason: .curl(code: Int32(code.rawValue), message: message))
        }
        var status = 0
        code = ccurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return (HTTPAnswer(status: status, body: state.response), state.observedFingerprint)
    }
}

// MARK: - C callbacks (no captures: they reach their state through the context pointer)

private let writeCallback: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
    buffer, size, count, context in
    guard let buffer, let context else { return 0 }
    let state = Unmanaged<CurlRequest.CallbackState>.fromOpaque(context).takeUnretainedValue()
    let total = size * count
    // LocalSend answers are small JSON documents; refuse anything absurd.
    if state.response.count + total > 4 * 1024 * 1024 { return 0 }
    buffer.withMemoryRebound(to: UInt8.self, capacity: total) { state.response.append($0, count: total) }
    return total
}

private let readCallback: ccurl_read_callback = { buffer, size, count, context in
    guard let buffer, let context else { return Int(CURL_READFUNC_ABORT) }
    let state = Unmanaged<CurlRequest.CallbackState>.fromOpaque(context).takeUnretainedValue()
    let capacity = size * count
    if state.cancelled { return Int(CURL_READFUNC_ABORT) }
    if let data = state.bodyData {
        let remaining = data.count - state.bodyOffset
        let length = min(remaining, capacity)
        if length > 0 {
            data.withUnsafeBytes { bytes in
                let start = bytes.baseAddress!.advanced(by: state.bodyOffset)
                UnsafeMutableRawPointer(buffer).copyMemory(from: start, byteCount: length)
            }
            state.bodyOffset += length
        }
        return length
    }
    guard state.fileDescriptor >= 0 else { return 0 }
    while true {
        let count = read(state.fileDescriptor, buffer, capacity)
        if count >= 0 { return count }
        if errno == EINTR { continue }
        state.readError = "cannot read: \(String(cString: strerror(errno)))"
        return Int(CURL_READFUNC_ABORT)
    }
}

private let progressCallback:
    @convention(c) (UnsafeMutableRawPointer?, curl_off_t, curl_off_t, curl_off_t, curl_off_t) -> Int32 = {
        context, _, _, _, uploaded in
        guard let context else { return 0 }
        let state = Unmanaged<CurlRequest.CallbackState>.fromOpaque(context).takeUnretainedValue()
        if state.cancelled || !state.onProgress(Int64(uploaded)) {
            state.cancelled = true
            return 1
        }
        return 0
    }

/// Called by libcurl with the OpenSSL context before the handshake: installs the fingerprint
/// check as the certificate verification.
private let sslContextCallback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> CURLcode = {
    _, sslContext, context in
    guard let sslContext else { return CURLE_SSL_CERTPROBLEM }
    SSL_CTX_set_cert_verify_callback(OpaquePointer(sslContext), certificateCheck, context)
    return CURLE_OK
}

/// OpenSSL's certificate verification, replaced: the peer's leaf certificate passes only when
/// the SHA-256 of its DER bytes is the pinned fingerprint (or, when learning, is recorded).
private let certificateCheck: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32 = { store, context in
    guard let store, let context, let certificate = X509_STORE_CTX_get0_cert(store) else { return 0 }
    let state = Unmanaged<CurlRequest.CallbackState>.fromOpaque(context).takeUnretainedValue()
    guard let fingerprint = Fingerprint.of(certificate: certificate) else {
        X509_STORE_CTX_set_error(store, X509_V_ERR_UNSPECIFIED)
        return 0
    }
    state.observedFingerprint = fingerprint
    if let expected = state.expectedFingerprint, expected != fingerprint {
        X509_STORE_CTX_set_error(store, X509_V_ERR_CERT_REJECTED)
        return 0
    }
    return 1
}

/// LocalSend fingerprints: SHA-256 of a certificate's DER bytes, uppercase hex.
enum Fingerprint {
    /// The fingerprint of an OpenSSL certificate.
    static func of(certificate: OpaquePointer) -> String? {
        let length = i2d_X509(certificate, nil)
        guard length > 0 else { return nil }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return i2d_X509(certificate, &cursor)
        }
        guard written == length else { return nil }
        return SHA256Digest.hex(of: der)
    }

    /// The fingerprint of the first certificate in a PEM document.
    static func of(pem: String) -> String? {
        guard let begin = pem.range(of: "-----BEGIN CERTIFICATE-----"),
            let end = pem.range(of: "-----END CERTIFICATE-----", range: begin.upperBound..<pem.endIndex)
        else { return nil }
        let base64 = pem[begin.upperBound..<end.lowerBound].filter { !$0.isWhitespace }
        guard let der = Data(base64Encoded: String(base64)) else { return nil }
        return SHA256Digest.hex(of: [UInt8](der))
    }
}

/// SHA-256 through OpenSSL's EVP interface, incrementally (for files) or at once.
final class SHA256Digest {
    private let context: OpaquePointer

    init() {
        context = EVP_MD_CTX_new()
        EVP_DigestInit_ex(context, EVP_sha256(), nil)
    }

    deinit { EVP_MD_CTX_free(context) }

    func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        EVP_DigestUpdate(context, base, bytes.count)
    }

    /// The digest as lowercase hex (LocalSend's `sha256` field is compared case-insensitively).
    func finalHex(uppercase: Bool = false) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        return digest.prefix(Int(length)).map { String(format: uppercase ? "%02X" : "%02x", $0) }.joined()
    }

    /// The uppercase hex digest of some bytes.
    static func hex(of bytes: [UInt8]) -> String {
        let digest = SHA256Digest()
        bytes.withUnsafeBytes { digest.update($0) }
        return digest.finalHex(uppercase: true)
    }

    /// The lowercase hex digest of a file, read in large blocks; `shouldStop` is asked between
    /// blocks.
    static func hex(ofFile url: URL, shouldStop: () -> Bool = { false }) throws(TransferError) -> String {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw TransferError(reason: .unreadable("\(url.lastPathComponent): \(String(cString: strerror(errno)))"))
        }
        defer { close(descriptor) }
        let digest = SHA256Digest()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            if shouldStop() { throw TransferError(reason: .cancelled) }
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw TransferError(reason: .unreadable("\(url.lastPathComponent): \(String(cString: strerror(errno)))"))
            }
            digest.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
        return digest.finalHex()
    }
}
