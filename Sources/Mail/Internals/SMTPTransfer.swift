import CCurl
import CCurlShims
import Foundation
import ShareSheet

/// Why an SMTP transfer failed, keeping libcurl's code, the server's reply code and the call.
struct SMTPFailure: Error, Sendable, CustomStringConvertible {
    /// libcurl's result code.
    var code: Int
    /// The last SMTP reply code (535 for a refused login), 0 when none came.
    var replyCode: Int
    /// libcurl's detailed message.
    var detail: String

    /// True when trying again later may work: the server could not be reached, the connection
    /// broke, or the server answered with a 4xx.
    var isTemporary: Bool {
        let curl = CURLcode(UInt32(code))
        switch curl {
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY,
            CURLE_OPERATION_TIMEDOUT, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING:
            return true
        default:
            return (400..<500).contains(replyCode)
        }
    }

    /// True when the server refused the user name or password.
    var isLoginRefused: Bool { CURLcode(UInt32(code)) == CURLE_LOGIN_DENIED || replyCode == 535 }

    /// True when the transfer stopped because it was cancelled.
    var isCancelled: Bool { CURLcode(UInt32(code)) == CURLE_ABORTED_BY_CALLBACK }

    var description: String {
        var text = detail.isEmpty ? String(cString: curl_easy_strerror(CURLcode(UInt32(code)))) : detail
        if replyCode > 0, !text.contains(String(replyCode)) { text += " (server reply \(replyCode))" }
        return text
    }
}

/// Where an SMTP transfer goes and how it logs in.
struct SMTPEndpoint: Sendable {
    var url: String
    var requireTLS: TLSRequirement
    var user: String?
    var password: String?
    var caFile: String?
    var connectTimeout: Int

    enum TLSRequirement: Sendable {
        /// STARTTLS must succeed, or nothing is sent.
        case required
        /// STARTTLS when the server offers it.
        case opportunistic
        /// Plain text (a local relay).
        case off
    }
}

/// Sends one message file over SMTP with libcurl, streaming it through a read callback.
///
/// The file's header section is sent without its Bcc lines (as `sendmail -t` does); the rest
/// is read from the file in 64 KB pieces while libcurl asks for them.
enum SMTPTransfer {
    private static let globalInit: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    /// Sends the message at `file` from `sender` to `recipients`.
    /// - Parameters:
    ///   - headerLength: how many bytes the header section takes (through its blank line).
    ///   - filteredHeader: the header section to send in its place.
    ///   - progress: told the bytes sent.
    ///   - isCancelled: polled between pieces; true stops the transfer before the message ends.
    static func send(
        file descriptor: Int32, headerLength: Int, filteredHeader: Data, sender: String, recipients: [String],
        endpoint: SMTPEndpoint, progress: Progress?, isCancelled: @escaping @Sendable () -> Bool
    ) throws(SMTPFailure) {
        guard globalInit == CURLE_OK, let handle = curl_easy_init() else {
            throw SMTPFailure(code: Int(CURLE_FAILED_INIT.rawValue), replyCode: 0, detail: "libcurl did not start")
        }
        defer { curl_easy_cleanup(handle) }
        var recipientList: UnsafeMutablePointer<curl_slist>? = nil
        for recipient in recipients { recipientList = curl_slist_append(recipientList, "<\(recipient)>") }
        defer { curl_slist_free_all(recipientList) }
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        defer { errorBuffer.deallocate() }

        let reader = MessageReader(
            descriptor: descriptor, header: filteredHeader, bodyOffset: headerLength, progress: progress,
            isCancelled: isCancelled)
        let context = Unmanaged.passRetained(reader)
        defer { context.release() }

        var setup = CURLE_OK
        func option(_ result: CURLcode) { if setup == CURLE_OK { setup = result } }
        option(ccurl_setopt_string(handle, CURLOPT_URL, endpoint.url))
        option(ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer))
        option(ccurl_setopt_string(handle, CURLOPT_MAIL_FROM, "<\(sender)>"))
        option(ccurl_setopt_slist(handle, CURLOPT_MAIL_RCPT, recipientList))
        option(ccurl_setopt_long(handle, CURLOPT_UPLOAD, 1))
        // The file keeps Unix line ends (as Maildir does); SMTP wants CRLF.
        option(ccurl_setopt_long(handle, CURLOPT_CRLF, 1))
        option(ccurl_setopt_read_function(handle, readMessage))
        option(ccurl_setopt_pointer(handle, CURLOPT_READDATA, context.toOpaque()))
        // Polled about once a second even while the server is silent, so a cancel is prompt.
        option(ccurl_setopt_xferinfo_function(handle, checkCancelled))
        option(ccurl_setopt_pointer(handle, CURLOPT_XFERINFODATA, context.toOpaque()))
        option(ccurl_setopt_long(handle, CURLOPT_NOPROGRESS, 0))
        option(ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1))
        option(ccurl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT, endpoint.connectTimeout))
        // A server that stops answering for a minute counts as gone.
        option(ccurl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1))
        option(ccurl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, 60))
        let tls: curl_usessl
        switch endpoint.requireTLS {
        case .required: tls = CURLUSESSL_ALL
        case .opportunistic: tls = CURLUSESSL_TRY
        case .off: tls = CURLUSESSL_NONE
        }
        option(ccurl_setopt_long(handle, CURLOPT_USE_SSL, Int(tls.rawValue)))
        if let caFile = endpoint.caFile { option(ccurl_setopt_string(handle, CURLOPT_CAINFO, caFile)) }
        if let user = endpoint.user {
            option(ccurl_setopt_string(handle, CURLOPT_USERNAME, user))
            option(ccurl_setopt_string(handle, CURLOPT_PASSWORD, endpoint.password ?? ""))
        }
        guard setup == CURLE_OK else {
            throw SMTPFailure(code: Int(setup.rawValue), replyCode: 0, detail: "cannot set up the transfer")
        }

        let result = curl_easy_perform(handle)
        if let readError = reader.readError {
            throw SMTPFailure(code: Int(CURLE_READ_ERROR.rawValue), replyCode: 0, detail: "cannot read the message: \(readError)")
        }
        guard result == CURLE_OK else {
            var reply = 0
            _ = ccurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &reply)
            throw SMTPFailure(code: Int(result.rawValue), replyCode: reply, detail: String(cString: errorBuffer))
        }
    }

    /// libcurl's progress callback: stops the transfer once it is cancelled.
    private static let checkCancelled: ccurl_xferinfo_callback = { context, _, _, _, _ in
        guard let context else { return 1 }
        return Unmanaged<MessageReader>.fromOpaque(context).takeUnretainedValue().cancelled ? 1 : 0
    }

    /// libcurl's read callback: fills `buffer` from the reader passed as `context`.
    private static let readMessage: ccurl_read_callback = { buffer, size, count, context in
        guard let buffer, let context else { return Int(CURL_READFUNC_ABORT) }
        let reader = Unmanaged<MessageReader>.fromOpaque(context).takeUnretainedValue()
        return reader.read(into: buffer, capacity: size * count)
    }
}

/// Serves the filtered header, then the file from the end of its header, to libcurl.
private final class MessageReader: @unchecked Sendable {
    // Only libcurl's thread (the one running curl_easy_perform) touches these.
    private let descriptor: Int32
    private let header: Data
    private var headerSent = 0
    private var fileOffset: off_t
    private let progress: Progress?
    private let isCancelled: @Sendable () -> Bool
    private var sent: Int64 = 0
    private(set) var readError: String?

    init(descriptor: Int32, header: Data, bodyOffset: Int, progress: Progress?, isCancelled: @escaping @Sendable () -> Bool) {
        self.descriptor = descriptor
        self.header = header
        self.fileOffset = off_t(bodyOffset)
        self.progress = progress
        self.isCancelled = isCancelled
    }

    var cancelled: Bool { isCancelled() }

    func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        if isCancelled() { return Int(CURL_READFUNC_ABORT) }
        if headerSent < header.count {
            let count = min(capacity, header.count - headerSent)
            header.withUnsafeBytes { bytes in
                UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress! + headerSent, byteCount: count)
            }
            headerSent += count
            return advance(count)
        }
        while true {
            let count = pread(descriptor, buffer, capacity, fileOffset)
            if count < 0 {
                if errno == EINTR { continue }
                readError = String(cString: strerror(errno))
                return Int(CURL_READFUNC_ABORT)
            }
            fileOffset += off_t(count)
            return advance(count)
        }
    }

    private func advance(_ count: Int) -> Int {
        sent += Int64(count)
        progress?.completedUnitCount = sent
        return count
    }
}
