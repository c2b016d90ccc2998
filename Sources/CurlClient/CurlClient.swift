import CCurl
import CCurlShims
import Foundation

/// The one libcurl client of ShareSheet: Mail's SMTP delivery, AirDrop's LocalSend requests and
/// the posting services' HTTP APIs all go through `perform`, so a fix to how a request is built,
/// streamed, reported, cancelled or fails lands once.
public enum CurlClient {
    private static let globalInit: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    /// Runs `transfer` on the calling thread and waits for its answer.
    /// - Parameter cancellation: stops the transfer when cancelled from another thread.
    /// - Returns: the status, headers and body of the answer (any status: callers judge it).
    /// - Throws: `CurlError` when no complete answer came, the body could not be read, or the
    ///   transfer was cancelled (`isCancelled`).
    public static func perform(_ transfer: CurlTransfer, cancellation: CurlCancellation? = nil) throws(CurlError)
        -> CurlResponse
    {
        guard globalInit == CURLE_OK, let handle = curl_easy_init() else {
            throw CurlError(code: CURLE_FAILED_INIT, detail: "libcurl did not start")
        }
        defer { curl_easy_cleanup(handle) }
        let state = TransferState(transfer: transfer, cancellation: cancellation)
        defer { state.closeFile() }
        let context = Unmanaged.passRetained(state)
        defer { context.release() }

        var headerList: UnsafeMutablePointer<curl_slist>? = nil
        defer { curl_slist_free_all(headerList) }
        var recipientList: UnsafeMutablePointer<curl_slist>? = nil
        defer { curl_slist_free_all(recipientList) }
        var form: OpaquePointer? = nil
        defer { curl_mime_free(form) }
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        defer { errorBuffer.deallocate() }

        var setup = CURLE_OK
        func option(_ result: CURLcode) { if setup == CURLE_OK { setup = result } }
        let opaque = context.toOpaque()
        option(ccurl_setopt_string(handle, CURLOPT_URL, transfer.url))
        option(ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer))
        option(ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1))
        option(ccurl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, transfer.followsRedirects ? 1 : 0))
        if transfer.followsRedirects { option(ccurl_setopt_long(handle, CURLOPT_MAXREDIRS, 10)) }
        option(ccurl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT, transfer.connectTimeout))
        option(ccurl_setopt_long(handle, CURLOPT_TIMEOUT, transfer.totalTimeout))
        if transfer.stallTimeout > 0 {
            option(ccurl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1))
            option(ccurl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, transfer.stallTimeout))
        }
        option(ccurl_setopt_write_function(handle, TransferState.write))
        option(ccurl_setopt_pointer(handle, CURLOPT_WRITEDATA, opaque))
        option(ccurl_setopt_header_function(handle, TransferState.header))
        option(ccurl_setopt_pointer(handle, CURLOPT_HEADERDATA, opaque))
        option(ccurl_setopt_read_function(handle, TransferState.read))
        option(ccurl_setopt_pointer(handle, CURLOPT_READDATA, opaque))
        // Called about once a second even while the peer is silent, so a cancel is prompt.
        option(ccurl_setopt_long(handle, CURLOPT_NOPROGRESS, 0))
        option(ccurl_setopt_xferinfo_function(handle, TransferState.progress))
        option(ccurl_setopt_pointer(handle, CURLOPT_XFERINFODATA, opaque))

        if transfer.url.hasPrefix("http") {
            // Never wait for a 100 Continue: not every server sends one.
            headerList = curl_slist_append(headerList, "Expect:")
            for (name, value) in transfer.headers { headerList = curl_slist_append(headerList, "\(name): \(value)") }
            option(ccurl_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList))
        }
        if let mailFrom = transfer.mailFrom { option(ccurl_setopt_string(handle, CURLOPT_MAIL_FROM, mailFrom)) }
        if !transfer.mailRecipients.isEmpty {
            for recipient in transfer.mailRecipients { recipientList = curl_slist_append(recipientList, recipient) }
            option(ccurl_setopt_slist(handle, CURLOPT_MAIL_RCPT, recipientList))
        }
        if transfer.convertsLineEnds { option(ccurl_setopt_long(handle, CURLOPT_CRLF, 1)) }
        if let user = transfer.user {
            option(ccurl_setopt_string(handle, CURLOPT_USERNAME, user))
            option(ccurl_setopt_string(handle, CURLOPT_PASSWORD, transfer.password ?? ""))
        }
        if let useSSL = transfer.useSSL { option(ccurl_setopt_long(handle, CURLOPT_USE_SSL, Int(useSSL.rawValue))) }
        if let caFile = transfer.caFile { option(ccurl_setopt_string(handle, CURLOPT_CAINFO, caFile)) }
        if let certificate = transfer.clientCertificate { option(ccurl_setopt_string(handle, CURLOPT_SSLCERT, certificate)) }
        if let key = transfer.clientKey { option(ccurl_setopt_string(handle, CURLOPT_SSLKEY, key)) }
        if !transfer.verifiesHost { option(ccurl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 0)) }
        if let hook = transfer.tlsContextHook {
            option(ccurl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1))
            // A resumed TLS session skips certificate verification: never resume.
            option(ccurl_setopt_long(handle, CURLOPT_SSL_SESSIONID_CACHE, 0))
            option(ccurl_setopt_ssl_context_function(handle, hook.callback))
            option(ccurl_setopt_pointer(handle, CURLOPT_SSL_CTX_DATA, hook.context))
        }

        let method = transfer.method?.uppercased()
        switch transfer.body {
        case .none:
            switch method {
            case nil, "GET": break
            case "HEAD": option(ccurl_setopt_long(handle, CURLOPT_NOBODY, 1))
            case "POST":
                option(ccurl_setopt_long(handle, CURLOPT_POST, 1))
                option(ccurl_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, 0))
            case let other?: option(ccurl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, other))
            }
        case .form(let parts):
            form = try MIMEForm.make(parts, for: handle)
            option(ccurl_setopt_mime(handle, form))
            if let method, method != "POST" { option(ccurl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method)) }
        case .data, .file, .fileRange, .stream:
            let size = try state.openBody()
            if transfer.uploads {
                option(ccurl_setopt_long(handle, CURLOPT_UPLOAD, 1))
                if let size { option(ccurl_setopt_off(handle, CURLOPT_INFILESIZE_LARGE, curl_off_t(size))) }
                if let method, method != "PUT" { option(ccurl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method)) }
            } else {
                option(ccurl_setopt_long(handle, CURLOPT_POST, 1))
                option(ccurl_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(size ?? -1)))
                if let method, method != "POST" { option(ccurl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method)) }
            }
            if state.readsFile { option(ccurl_setopt_long(handle, CURLOPT_UPLOAD_BUFFERSIZE, 512 * 1024)) }
        }
        guard setup == CURLE_OK else { throw CurlError(code: setup, detail: "cannot set up the transfer") }
        try state.openResponseFile()

        let result = curl_easy_perform(handle)
        var status = 0
        _ = ccurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        if let readFailure = state.readFailure {
            throw CurlError(code: CURLE_READ_ERROR, responseCode: status, readFailure: readFailure)
        }
        guard result == CURLE_OK else {
            var detail = String(cString: errorBuffer)
            if let writeFailure = state.writeFailure { detail = writeFailure }
            if state.overflowed { detail = "the answer is larger than \(transfer.responseLimit) bytes" }
            throw CurlError(code: result, detail: detail, responseCode: status)
        }
        return CurlResponse(status: status, headers: state.responseHeaders, body: state.responseBody)
    }

    /// Runs `transfer` on a thread of its own, so a long upload never holds a thread of Swift's
    /// cooperative pool; cancelling the calling task stops it.
    /// - Throws: `CancellationError` when the task was cancelled, else `CurlError`.
    public static func send(_ transfer: CurlTransfer) async throws -> CurlResponse {
        let cancellation = CurlCancellation()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<CurlResponse, any Error>) in
                let thread = Thread {
                    do {
                        continuation.resume(returning: try perform(transfer, cancellation: cancellation))
                    } catch {
                        continuation.resume(throwing: cancellation.isCancelled ? CancellationError() : error)
                    }
                }
                thread.name = "curl"
                thread.start()
            }
        } onCancel: {
            cancellation.cancel()
        }
    }
}
