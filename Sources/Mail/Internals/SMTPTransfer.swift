import CCurl
import CurlClient
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

    /// True when TLS was required and the server does not offer STARTTLS (a plain relay).
    var isStartTLSMissing: Bool { CURLcode(UInt32(code)) == CURLE_USE_SSL_FAILED }

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

/// Sends one message file over SMTP through the shared libcurl client, streaming it.
///
/// The file's header section is sent without its Bcc lines (as `sendmail -t` does); the rest
/// is read from the file while libcurl asks for it.
enum SMTPTransfer {
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
        let reader = MessageReader(
            descriptor: descriptor, header: filteredHeader, bodyOffset: headerLength, progress: progress,
            isCancelled: isCancelled)
        var transfer = CurlTransfer(
            url: endpoint.url, body: .stream(reader, size: nil), connectTimeout: endpoint.connectTimeout,
            // A server that stops answering for a minute counts as gone.
            stallTimeout: 60)
        transfer.uploads = true
        // The file keeps Unix line ends (as Maildir does), or CRLF when another tool wrote it
        // (the reader hands those on as LF); SMTP wants CRLF.
        transfer.convertsLineEnds = true
        transfer.mailFrom = "<\(sender)>"
        transfer.mailRecipients = recipients.map { "<\($0)>" }
        switch endpoint.requireTLS {
        case .required: transfer.useSSL = CURLUSESSL_ALL
        case .opportunistic: transfer.useSSL = CURLUSESSL_TRY
        case .off: transfer.useSSL = CURLUSESSL_NONE
        }
        transfer.caFile = endpoint.caFile
        if let user = endpoint.user {
            transfer.user = user
            transfer.password = endpoint.password ?? ""
        }
        // Polled about once a second even while the server is silent, so a cancel is prompt.
        transfer.onProgress = { _ in !isCancelled() }
        do {
            _ = try CurlClient.perform(transfer)
        } catch {
            if let readFailure = error.readFailure {
                throw SMTPFailure(
                    code: Int(CURLE_READ_ERROR.rawValue), replyCode: 0, detail: "cannot read the message: \(readFailure)")
            }
            throw SMTPFailure(code: error.number, replyCode: error.responseCode, detail: error.detail)
        }
    }
}

/// Serves the filtered header, then the file from the end of its header, to libcurl.
///
/// A CR before an LF is left out of the body: libcurl's line end conversion (7.88) turns every
/// LF into CRLF, so a message written with CRLF would otherwise reach the server with CR CR LF.
private final class MessageReader: CurlBodySource, @unchecked Sendable {
    // Only libcurl's thread (the one running curl_easy_perform) touches these.
    private let descriptor: Int32
    private let header: Data
    private var headerSent = 0
    private var fileOffset: off_t
    private let progress: Progress?
    private let isCancelled: @Sendable () -> Bool
    private var sent: Int64 = 0

    init(descriptor: Int32, header: Data, bodyOffset: Int, progress: Progress?, isCancelled: @escaping @Sendable () -> Bool) {
        self.descriptor = descriptor
        self.header = header
        self.fileOffset = off_t(bodyOffset)
        self.progress = progress
        self.isCancelled = isCancelled
    }

    /// Why reading stopped.
    struct Stopped: Error, CustomStringConvertible {
        var description: String
    }

    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) throws -> Int {
        if isCancelled() { throw CancellationError() }
        if headerSent < header.count {
            let count = min(capacity, header.count - headerSent)
            header.withUnsafeBytes { bytes in
                buffer.copyMemory(from: bytes.baseAddress! + headerSent, byteCount: count)
            }
            headerSent += count
            advance(count)
            return count
        }
        while true {
            let count = pread(descriptor, buffer, capacity, fileOffset)
            if count < 0 {
                if errno == EINTR { continue }
                throw Stopped(description: String(cString: strerror(errno)))
            }
            let bytes = buffer.bindMemory(to: UInt8.self, capacity: max(count, 1))
            // A CR as the last byte read waits for the next read, which shows whether an LF follows.
            var consumed = count
            if count > 1, bytes[count - 1] == UInt8(ascii: "\r") { consumed -= 1 }
            if count == 1, bytes[0] == UInt8(ascii: "\r"), try nextByte(at: fileOffset + 1) == UInt8(ascii: "\n") {
                fileOffset += 1
                advance(1)
                continue
            }
            let kept = withoutCarriageReturnsBeforeLineFeeds(bytes, count: consumed)
            fileOffset += off_t(consumed)
            advance(consumed)
            return kept
        }
    }

    /// Removes, in place, each CR of the first `count` bytes that an LF follows.
    /// - Returns: how many bytes are left.
    private func withoutCarriageReturnsBeforeLineFeeds(_ bytes: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        var kept = 0
        for index in 0..<count {
            if bytes[index] == UInt8(ascii: "\r"), index + 1 < count, bytes[index + 1] == UInt8(ascii: "\n") { continue }
            bytes[kept] = bytes[index]
            kept += 1
        }
        return kept
    }

    /// The byte at `offset` of the file; nil at its end.
    private func nextByte(at offset: off_t) throws -> UInt8? {
        var byte: UInt8 = 0
        while true {
            let count = pread(descriptor, &byte, 1, offset)
            if count < 0, errno == EINTR { continue }
            if count < 0 { throw Stopped(description: String(cString: strerror(errno))) }
            return count == 1 ? byte : nil
        }
    }

    /// Counts `count` more bytes of the message as sent: progress counts the file's bytes
    /// (the filtered header, then the body as stored), so its total is known before sending.
    private func advance(_ count: Int) {
        sent += Int64(count)
        progress?.completedUnitCount = sent
    }
}
