import Foundation
import ShareSheet
import UniformTypes

/// Something to send: a text message or a file (on disk or in memory).
public enum NearbyPayload: Sendable {
    /// Text: sent alone it is a LocalSend text message (a `preview` the receiver shows, answered
    /// 204); with other payloads it travels as a `.txt` file.
    case text(String)
    /// A file on disk, streamed.
    case file(URL)
    /// Bytes with a name and a MIME type.
    case data(Data, filename: String, mimeType: String)
}

/// How a send ended.
public enum NearbySendResult: Sendable, Equatable {
    /// Everything arrived (or the text message was shown).
    case delivered(files: [String])
    /// The receiver declined (403).
    case declined
}

/// Sends payloads to one LocalSend device: `prepare-upload` (with the PIN when it asks), then the
/// files in parallel over HTTPS pinned to the device's fingerprint, `cancel` when stopped.
///
/// Runs synchronously on the calling thread (use a background thread); `cancel()` may be called
/// from any thread.
public final class NearbySender: @unchecked Sendable {
    private let device: NearbyDevice
    private let identity: NearbyIdentity
    private let settings: NearbySettings
    private let cancelled = Locked(false)
    private let session = Locked<String?>(nil)
    private let delivered = Locked<[String]>([])
    private let connected = Locked(false)

    /// The labels of the files the receiver has taken whole so far, in the order they finished:
    /// after a cancel, what reached the device (a LocalSend receiver keeps finished files).
    public var deliveredFiles: [String] { delivered.withLock { $0 } }

    /// False until a request has connected to the device: a send that failed before then
    /// (connection refused, host unreachable, connect timed out) gave it nothing, and can go
    /// again later as a whole.
    var hasConnected: Bool { connected.withLock { $0 } }

    /// Bytes sent so far and in all; updated while files upload.
    public let progress: Progress

    /// Prepares a sender to `device`.
    public init(device: NearbyDevice, identity: NearbyIdentity, settings: NearbySettings, progress: Progress = Progress(totalUnitCount: 0)) {
        self.device = device
        self.identity = identity
        self.settings = settings
        self.progress = progress
    }

    /// Stops the transfer: running uploads abort and the receiver is told with `cancel`.
    public func cancel() {
        cancelled.withLock { $0 = true }
    }

    private var isCancelled: Bool { cancelled.withLock { $0 } }

    struct Outgoing {
        var offer: FileOffer
        var body: RequestBody
        var label: String
    }

    /// Sends `payloads`.
    /// - Parameters:
    ///   - payloads: the files and texts to offer, in order.
    ///   - previews: the `preview` of each payload's file offer, lined up with `payloads` (nil,
    ///     or missing at the end, for none): a thumbnail as a `data:` URL, say. A text payload's
    ///     preview is its text when it is sent alone and none otherwise, and a `text/*` file gets
    ///     none: a receiver takes a single text offer with a preview for a text message.
    ///   - pin: the PIN, for receivers that ask for one.
    /// - Throws: `ShareError` naming the device or the item: `.noInput` for a missing file,
    ///   `.usage` for a missing or wrong PIN, `.cancelled` when cancelled, `.unavailable` when the
    ///   device cannot be reached or is not who it announced, `.ioError` for a failed upload.
    public func send(_ payloads: [NearbyPayload], previews: [String?] = [], pin: String? = nil) throws -> NearbySendResult {
        let outgoing = try describe(payloads, previews: previews)
        progress.totalUnitCount = outgoing.reduce(0) { $0 + $1.offer.size }
        progress.completedUnitCount = 0

        // 1. prepare-upload
        let request = PrepareUploadRequest(
            info: settings.deviceInfo(fingerprint: identity.fingerprint),
            files: Dictionary(uniqueKeysWithValues: outgoing.map { ($0.offer.id, $0.offer) }))
        let body = try JSONEncoder.localSend().encode(request)
        var url = device.baseURL + LocalSend.prepareUploadPath
        if let pin, !pin.isEmpty { url += "?pin=" + Self.queryEscaped(pin) }
        let answer = try perform(url: url, body: .data(body), contentType: "application/json")
        switch answer.status {
        case 200: break
        case 204: return .delivered(files: outgoing.map(\.label))
        case 401:
            throw ShareError(
                .usage,
                pin == nil || pin!.isEmpty
                    ? "AirDrop: \(device.info.alias) asks for a PIN"
                    : "AirDrop: \(device.info.alias) did not accept the PIN",
                field: "pin", fix: .givePin)
        case 403: return .declined
        case 409: throw ShareError(.temporaryFailure, "AirDrop: \(device.info.alias) is busy with another transfer")
        case 429: throw ShareError(.temporaryFailure, "AirDrop: \(device.info.alias) refuses for now: too many PIN attempts")
        default: throw ShareError(.unavailable, "AirDrop: \(device.info.alias) answered \(answer.status) to the transfer request")
        }
        guard let accepted = try? JSONDecoder().decode(PrepareUploadResponse.self, from: answer.body) else {
            throw ShareError(.unavailable, "AirDrop: \(device.info.alias) answered the transfer request with something unreadable")
        }
        session.withLock { $0 = accepted.sessionId }

        // 2. upload, several files at once.
        let work = Locked(outgoing.filter { accepted.files[$0.offer.id] != nil }[...])
        let failure = Locked<ShareError?>(nil)
        let sentBytes = Locked([String: Int64]())
        let group = DispatchGroup()
        let workerCount = max(1, min(settings.parallelUploads, outgoing.count))
        for _ in 0..<workerCount {
            group.enter()
            let worker = Thread { [self] in
                defer { group.leave() }
                while failure.withLock({ $0 == nil }), !isCancelled, let item = work.withLock({ $0.popFirst() }) {
                    do {
                        try upload(item, sessionId: accepted.sessionId, token: accepted.files[item.offer.id]!, sentBytes: sentBytes)
                        delivered.withLock { $0.append(item.label) }
                    } catch {
                        failure.withLock { current in
                            if current == nil { current = (error as? ShareError) ?? ShareError(.ioError, "AirDrop: \(error)") }
                        }
                    }
                }
            }
            worker.stackSize = 1 << 20
            worker.start()
        }
        group.wait()
        if isCancelled || failure.withLock({ $0?.kind == .cancelled }) {
            sendCancel()
            throw ShareError(.cancelled, "AirDrop: cancelled")
        }
        if let failure = failure.withLock({ $0 }) {
            sendCancel()
            throw failure
        }
        return .delivered(files: outgoing.filter { accepted.files[$0.offer.id] != nil }.map(\.label))
    }

    private func upload(_ item: Outgoing, sessionId: String, token: String, sentBytes: Locked<[String: Int64]>) throws(ShareError) {
        let url =
            device.baseURL + LocalSend.uploadPath + "?sessionId=" + Self.queryEscaped(sessionId) + "&fileId="
            + Self.queryEscaped(item.offer.id) + "&token=" + Self.queryEscaped(token)
        let progress = self.progress
        let answer = try perform(url: url, body: item.body, contentType: "application/octet-stream") { [cancelled] sent in
            let total = sentBytes.withLock { bytes -> Int64 in
                bytes[item.offer.id] = sent
                return bytes.values.reduce(0, +)
            }
            progress.completedUnitCount = total
            return !cancelled.withLock { $0 }
        }
        guard (200..<300).contains(answer.status) else {
            throw ShareError(.ioError, "AirDrop: \(item.label): \(device.info.alias) answered \(answer.status) to the upload")
        }
    }

    /// Tells the receiver the session is over (best effort, short timeout).
    private func sendCancel() {
        guard let sessionId = session.withLock({ $0 }) else { return }
        _ = try? CurlRequest.perform(
            url: device.baseURL + LocalSend.cancelPath + "?sessionId=" + Self.queryEscaped(sessionId), body: .none,
            trust: device.trust, clientIdentity: (identity.certificate, identity.key), connectTimeout: 2, totalTimeout: 3)
    }

    private func perform(
        url: String, body: RequestBody, contentType: String, onProgress: @escaping (Int64) -> Bool = { _ in true }
    ) throws(ShareError) -> HTTPAnswer {
        if isCancelled { throw ShareError(.cancelled, "AirDrop: cancelled") }
        do {
            let answer = try CurlRequest.perform(
                url: url, body: body, contentType: contentType, trust: device.trust,
                clientIdentity: (identity.certificate, identity.key), onProgress: { [cancelled] sent in
                    !cancelled.withLock { $0 } && onProgress(sent)
                }
            ).answer
            connected.withLock { $0 = true }
            return answer
        } catch {
            if !error.isNoConnection { connected.withLock { $0 = true } }
            switch error.reason {
            case .cancelled: throw ShareError(.cancelled, "AirDrop: cancelled")
            case .unreadable(let message): throw ShareError(.noInput, "AirDrop: \(message)")
            case .fingerprintMismatch:
                throw ShareError(.unavailable, "AirDrop: \(device.info.alias) (\(device.host)): \(error)")
            case .curl:
                throw ShareError(.unavailable, "AirDrop: \(device.info.alias) (\(device.host)): \(error)")
            }
        }
    }

    /// Turns payloads into file offers: names, sizes, MIME types, SHA-256 digests and previews.
    func describe(_ payloads: [NearbyPayload], previews: [String?] = []) throws -> [Outgoing] {
        let isTextMessage = payloads.count == 1 && { if case .text = payloads[0] { return true } else { return false } }()
        var result: [Outgoing] = []
        var usedNames = Set<String>()
        func unique(_ name: String) -> String {
            var candidate = name
            var number = 2
            let base = (name as NSString).deletingPathExtension
            let ext = (name as NSString).pathExtension
            while usedNames.contains(candidate) {
                candidate = "\(base) \(number)" + (ext.isEmpty ? "" : ".\(ext)")
                number += 1
            }
            usedNames.insert(candidate)
            return candidate
        }
        /// The given preview of a file offer; none for text, whose preview is the text itself.
        func filePreview(_ index: Int, fileType: String) -> String? {
            guard index < previews.count, !fileType.hasPrefix("text/") else { return nil }
            return previews[index]
        }
        for (index, payload) in payloads.enumerated() {
            if isCancelled { throw ShareError(.cancelled, "AirDrop: cancelled") }
            let id = UUID().uuidString
            switch payload {
            case .text(let text):
                let data = Data(text.utf8)
                var offer = FileOffer(
                    id: id, fileName: unique(isTextMessage ? "\(id).txt" : "Text.txt"), size: Int64(data.count),
                    fileType: "text/plain", sha256: Self.hex(of: data))
                if isTextMessage { offer.preview = text }
                result.append(Outgoing(offer: offer, body: .data(data), label: isTextMessage ? "text" : offer.fileName))
            case .data(let data, let filename, let mimeType):
                let name = unique(filename.isEmpty ? "Data" : filename)
                let offer = FileOffer(
                    id: id, fileName: name, size: Int64(data.count), fileType: mimeType, sha256: Self.hex(of: data),
                    preview: filePreview(index, fileType: mimeType))
                result.append(Outgoing(offer: offer, body: .data(data), label: name))
            case .file(let url):
                var status = stat()
                guard stat(url.path, &status) == 0 else {
                    throw ShareError(.noInput, "AirDrop: \(url.path): \(String(cString: strerror(errno)))")
                }
                guard (status.st_mode & S_IFMT) == S_IFREG else {
                    throw ShareError(.noInput, "AirDrop: \(url.path): not a regular file")
                }
                guard access(url.path, R_OK) == 0 else {
                    throw ShareError(.noInput, "AirDrop: \(url.path): \(String(cString: strerror(errno)))")
                }
                let digest: String
                do {
                    digest = try SHA256Digest.hex(ofFile: url) { [cancelled] in cancelled.withLock { $0 } }
                } catch {
                    if error.reason == .cancelled { throw ShareError(.cancelled, "AirDrop: cancelled") }
                    throw ShareError(.noInput, "AirDrop: \(error)")
                }
                let type = UTType.type(ofFileAt: url)
                let name = unique(FileNames.sendable(url.lastPathComponent))
                let modified = Date(timeIntervalSince1970: TimeInterval(status.st_mtim.tv_sec))
                let fileType = type.preferredMIMEType ?? "application/octet-stream"
                let offer = FileOffer(
                    id: id, fileName: name, size: Int64(status.st_size), fileType: fileType, sha256: digest,
                    preview: filePreview(index, fileType: fileType),
                    metadata: .init(modified: ISO8601DateFormatter().string(from: modified), accessed: nil))
                result.append(Outgoing(offer: offer, body: .file(url, size: Int64(status.st_size)), label: name))
            }
        }
        return result
    }

    private static func hex(of data: Data) -> String {
        let digest = SHA256Digest()
        data.withUnsafeBytes { digest.update($0) }
        return digest.finalHex()
    }

    static func queryEscaped(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}
