import CCurl
import CCurlShims
import Foundation

/// What libcurl's callbacks reach through their context pointer during one transfer. Only the
/// thread running `curl_easy_perform` touches it.
final class TransferState {
    private let transfer: CurlTransfer
    private let cancellation: CurlCancellation?
    private(set) var responseBody = Data()
    private(set) var responseHeaders: [String: String] = [:]
    private(set) var overflowed = false
    private(set) var readFailure: String?
    private var bodyData: Data?
    private var bodyOffset = 0
    private var descriptor: Int32 = -1
    private var fileOffset: Int64 = 0
    private var fileRemaining: Int64 = .max
    private var source: (any CurlBodySource)?
    private var responseDescriptor: Int32 = -1
    /// Why the answer could not be written to `responseFile`.
    private(set) var writeFailure: String?

    init(transfer: CurlTransfer, cancellation: CurlCancellation?) {
        self.transfer = transfer
        self.cancellation = cancellation
    }

    /// True when the body is read from a file descriptor.
    var readsFile: Bool { descriptor >= 0 }

    /// Opens the body for reading and returns its size, nil when unknown.
    func openBody() throws(CurlError) -> Int64? {
        switch transfer.body {
        case .none, .form: return 0
        case .data(let data):
            bodyData = data
            return Int64(data.count)
        case .stream(let stream, let size):
            source = stream
            return size
        case .file(let url):
            try open(url)
            var info = stat()
            guard fstat(descriptor, &info) == 0 else { throw unreadable(url) }
            return Int64(info.st_size)
        case .fileRange(let url, let offset, let length):
            try open(url)
            fileOffset = offset
            fileRemaining = length
            return length
        }
    }

    private func open(_ url: URL) throws(CurlError) {
        descriptor = Glibc.open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw unreadable(url) }
    }

    private func unreadable(_ url: URL) -> CurlError {
        CurlError(code: CURLE_READ_ERROR, readFailure: "\(url.path): \(String(cString: strerror(errno)))")
    }

    func closeFile() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        if responseDescriptor >= 0 { close(responseDescriptor) }
        responseDescriptor = -1
    }

    /// Creates or empties `transfer.responseFile`, which then receives the answer's body.
    func openResponseFile() throws(CurlError) {
        guard let url = transfer.responseFile else { return }
        responseDescriptor = Glibc.open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard responseDescriptor >= 0 else {
            throw CurlError(code: CURLE_WRITE_ERROR, detail: "\(url.path): \(String(cString: strerror(errno)))")
        }
    }

    /// Writes a piece of the answer to the response file; false when the disk refused it.
    private func writeToFile(_ buffer: UnsafeRawPointer, count: Int) -> Bool {
        var offset = 0
        while offset < count {
            let written = Glibc.write(responseDescriptor, buffer + offset, count - offset)
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                let reason = written < 0 ? String(cString: strerror(errno)) : "nothing was written"
                writeFailure = "\(transfer.responseFile?.path ?? "the response file"): \(reason)"
                return false
            }
        }
        return true
    }

    private var stopped: Bool { cancellation?.isCancelled ?? false }

    // MARK: Callbacks (no captures: they reach the state through the context pointer)

    static func from(_ context: UnsafeMutableRawPointer) -> TransferState {
        Unmanaged<TransferState>.fromOpaque(context).takeUnretainedValue()
    }

    /// CURLOPT_READFUNCTION: the next piece of the body.
    static let read: ccurl_read_callback = { buffer, size, count, context in
        guard let buffer, let context else { return Int(CURL_READFUNC_ABORT) }
        return from(context).read(into: buffer, capacity: size * count)
    }

    private func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        if stopped { return Int(CURL_READFUNC_ABORT) }
        if let data = bodyData {
            let length = min(data.count - bodyOffset, capacity)
            guard length > 0 else { return 0 }
            data.withUnsafeBytes { bytes in
                UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress! + bodyOffset, byteCount: length)
            }
            bodyOffset += length
            return length
        }
        if let source {
            do {
                return try source.read(into: UnsafeMutableRawPointer(buffer), capacity: capacity)
            } catch is CancellationError {
                return Int(CURL_READFUNC_ABORT)
            } catch {
                readFailure = "\(error)"
                return Int(CURL_READFUNC_ABORT)
            }
        }
        guard descriptor >= 0, fileRemaining > 0 else { return 0 }
        while true {
            let count = pread(descriptor, buffer, Int(min(Int64(capacity), fileRemaining)), off_t(fileOffset))
            if count >= 0 {
                fileOffset += Int64(count)
                fileRemaining -= Int64(count)
                return count
            }
            if errno == EINTR { continue }
            readFailure = "cannot read: \(String(cString: strerror(errno)))"
            return Int(CURL_READFUNC_ABORT)
        }
    }

    /// CURLOPT_WRITEFUNCTION: a piece of the answer's body.
    static let write: ccurl_data_callback = { buffer, size, count, context in
        guard let buffer, let context else { return 0 }
        let state = from(context)
        let total = size * count
        if state.responseDescriptor >= 0 {
            return state.writeToFile(UnsafeRawPointer(buffer), count: total) ? total : 0
        }
        if state.responseBody.count + total > state.transfer.responseLimit {
            state.overflowed = true
            return 0
        }
        buffer.withMemoryRebound(to: UInt8.self, capacity: total) { state.responseBody.append($0, count: total) }
        return total
    }

    /// CURLOPT_HEADERFUNCTION: one header line; a status line starts a new response (after a
    /// 100 Continue, only the final response's headers are kept).
    static let header: ccurl_data_callback = { buffer, size, count, context in
        guard let buffer, let context else { return 0 }
        let state = from(context)
        let total = size * count
        let line = buffer.withMemoryRebound(to: UInt8.self, capacity: total) {
            String(decoding: UnsafeBufferPointer(start: $0, count: total), as: UTF8.self)
        }
        if line.hasPrefix("HTTP/") {
            state.responseHeaders = [:]
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
            state.responseHeaders[name] = value
        }
        return total
    }

    /// CURLOPT_XFERINFOFUNCTION: reports the counts and stops a cancelled transfer.
    static let progress: ccurl_xferinfo_callback = { context, downloadTotal, downloaded, uploadTotal, uploaded in
        guard let context else { return 1 }
        let state = from(context)
        if state.stopped { return 1 }
        guard let onProgress = state.transfer.onProgress else { return 0 }
        let counts = CurlCounts(
            downloadTotal: Int64(downloadTotal), downloaded: Int64(downloaded), uploadTotal: Int64(uploadTotal),
            uploaded: Int64(uploaded))
        return onProgress(counts) ? 0 : 1
    }
}
