import CCurl
import CurlClient
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

    /// True when no connection was made at all: the name does not resolve, the connection is
    /// refused or the host unreachable, or the connect timed out. Nothing reached the device,
    /// so the device is not there now rather than refusing or failing.
    var isNoConnection: Bool {
        guard case .curl(let code, _) = reason else { return false }
        return [CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_CONNECT, CURLE_OPERATION_TIMEDOUT].map { Int32($0.rawValue) }.contains(code)
    }

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

/// One request with the LocalSend trust model, run synchronously on the calling thread through
/// the shared libcurl client; this file adds only the certificate pinning.
enum CurlRequest {
    /// What the certificate check reaches through its context pointer.
    final class PinState {
        let expectedFingerprint: String?
        var observedFingerprint: String?

        init(expectedFingerprint: String?) { self.expectedFingerprint = expectedFingerprint }
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
        let expected: String?
        if case .pinned(let fingerprint) = trust { expected = fingerprint.uppercased() } else { expected = nil }
        let pin = PinState(expectedFingerprint: expected)
        let pinContext = Unmanaged.passRetained(pin)
        defer { pinContext.release() }

        let curlBody: CurlBody
        switch body {
        case .none: curlBody = .none
        case .data(let data): curlBody = .data(data)
        case .file(let fileURL, let size): curlBody = .fileRange(fileURL, offset: 0, length: size)
        }
        var transfer = CurlTransfer(
            url: url, method: "POST", headers: contentType.map { [("Content-Type", $0)] } ?? [], body: curlBody,
            connectTimeout: connectTimeout, totalTimeout: totalTimeout, stallTimeout: 0,
            // LocalSend answers are small JSON documents; refuse anything absurd.
            responseLimit: 4 * 1024 * 1024)
        if url.hasPrefix("https:") {
            switch trust {
            case .plainHTTP:
                break
            case .pinned, .learn:
                // Verification stays on: the certificate check itself is replaced by the
                // fingerprint comparison (self-signed certificates have no chain to check),
                // and the host name is not checked because LocalSend certificates name no host.
                transfer.verifiesHost = false
                transfer.tlsContextHook = CurlTLSContextHook(callback: sslContextCallback, context: pinContext.toOpaque())
            }
            if let clientIdentity {
                transfer.clientCertificate = clientIdentity.certificate.path
                transfer.clientKey = clientIdentity.key.path
            }
        }
        // The progress closure runs on this thread, inside `perform`, and nowhere else.
        let report = UncheckedProgress(onProgress)
        let stopped = CallbackFlag()
        transfer.onProgress = { counts in
            if report.call(counts.uploaded) { return true }
            stopped.set()
            return false
        }

        let response: CurlResponse
        do {
            response = try CurlClient.perform(transfer)
        } catch {
            if let readFailure = error.readFailure { throw TransferError(reason: .unreadable(readFailure)) }
            if stopped.isSet || error.isCancelled { throw TransferError(reason: .cancelled) }
            if let expected, let observed = pin.observedFingerprint, observed != expected {
                throw TransferError(reason: .fingerprintMismatch(expected: expected, actual: observed))
            }
            throw TransferError(reason: .curl(code: Int32(error.number), message: error.description))
        }
        if let expected, let observed = pin.observedFingerprint, observed != expected {
            throw TransferError(reason: .fingerprintMismatch(expected: expected, actual: observed))
        }
        return (HTTPAnswer(status: response.status, body: response.body), pin.observedFingerprint)
    }
}

/// The caller's progress closure, called only on the thread that runs the transfer.
private final class UncheckedProgress: @unchecked Sendable {
    private let body: (Int64) -> Bool
    init(_ body: @escaping (Int64) -> Bool) { self.body = body }
    func call(_ sent: Int64) -> Bool { body(sent) }
}

/// Set by the progress closure when it stopped the transfer; read after the transfer on the
/// same thread.
private final class CallbackFlag: @unchecked Sendable {
    private(set) var isSet = false
    func set() { isSet = true }
}

// MARK: - C callbacks (no captures: they reach their state through the context pointer)

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
    let state = Unmanaged<CurlRequest.PinState>.fromOpaque(context).takeUnretainedValue()
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
