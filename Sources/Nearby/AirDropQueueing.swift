import Foundation
import ShareSheet
import ShareSheetSystem
import UniformTypes

/// An AirDrop to a device that is not there now, put in the share queue instead of failing
/// (SPEC §14): the items are copied into the entry, which waits for the device to show up in
/// discovery (or its address to answer) and then goes whole, once.
enum AirDropQueueing {
    /// What the queue entry and the person are told.
    struct Queued: Sendable {
        var entry: ShareQueue.Entry
        /// "Ana's Pixel is not nearby; the photo will go when it is."
        var message: String
    }

    /// The parameter that keeps the fingerprint the device must have (`--set fingerprint=`, or
    /// the one discovery saw): the queued send goes to that device or to none.
    static let fingerprintParameter = "fingerprint"

    /// Queues `payloads` for the device `target` names.
    /// - Parameters:
    ///   - target: what was given: a fingerprint, an alias or `HOST[:PORT]`.
    ///   - device: the device when discovery had found it (it then failed to connect).
    ///   - expectedFingerprint: the fingerprint given with `--set fingerprint=`.
    ///   - error: the failure that made it wait, kept as its last error.
    /// - Throws: the queue's `ShareError` when the entry cannot be written (nothing is queued).
    static func queue(
        _ payloads: [NearbyPayload], target: String, device: NearbyDevice?, expectedFingerprint: String?,
        error: ShareError, in queue: ShareQueue
    ) throws -> Queued {
        let isAddress = DirectAddress.parse(target) != nil
        let fingerprint = device?.fingerprint ?? expectedFingerprint.flatMap { $0.isEmpty ? nil : $0 }
        let storedTarget: String
        let title: String
        let waitsFor: QueuedShare.Condition
        if let device {
            storedTarget = device.fingerprint
            title = device.info.alias
            waitsFor = .device(fingerprint: device.fingerprint, alias: device.info.alias)
        } else if let (host, _) = DirectAddress.parse(target) {
            // A typed address is watched as the host a device announces from.
            storedTarget = target
            title = target
            waitsFor = .device(fingerprint: fingerprint, alias: host)
        } else if looksLikeFingerprint(target) {
            storedTarget = target
            title = "the device \(target.prefix(12))…"
            waitsFor = .device(fingerprint: target, alias: target)
        } else {
            storedTarget = target
            title = target
            waitsFor = .device(fingerprint: fingerprint, alias: target)
        }
        var parameters: [String: String] = [:]
        if let fingerprint { parameters[fingerprintParameter] = fingerprint.uppercased() }
        let reason = isAddress && device == nil ? "Nothing answered at \(title)." : "\(title) was not nearby."
        var share = QueuedShare(
            kind: .airDrop, activity: ActivityType.airDrop.rawValue, target: storedTarget, targetTitle: title, reason: reason,
            waitsFor: waitsFor, parameters: parameters, items: [])
        share.lastError = error.message
        let entry = try queue.add(share, sources: payloads.map(source(of:)))
        let what = words(for: payloads)
        let message =
            isAddress && device == nil
            ? "\(title) does not answer; \(what) will go when it does."
            : "\(title) is not nearby; \(what) will go when it is."
        return Queued(entry: entry, message: message)
    }

    /// A payload as the queue stores it: files copied, in-memory data with its name and type.
    static func source(of payload: NearbyPayload) -> ShareQueue.Source {
        switch payload {
        case .text(let text): return .text(text)
        case .file(let url): return .file(url)
        case .data(let data, let filename, let mimeType): return .data(data, name: filename, mimeType: mimeType)
        }
    }

    /// The stored items as payloads again, in their order: a stored file with a MIME type was
    /// in-memory data (its type is kept), any other is streamed from the entry.
    static func payloads(of entry: ShareQueue.Entry) throws -> [NearbyPayload] {
        try entry.share.items.map { item in
            if let text = item.text, item.file == nil { return .text(text) }
            guard let url = entry.url(of: item) else { throw ShareError(.badData, "AirDrop: a queued item has neither file nor text") }
            if let mimeType = item.mimeType, let name = item.file {
                do {
                    return .data(try Data(contentsOf: url), filename: name, mimeType: mimeType)
                } catch {
                    throw ShareError(.noInput, "AirDrop: \(url.path): \(error.localizedDescription)")
                }
            }
            return .file(url)
        }
    }

    /// The items in a few words: "the text", "the photo", "report.pdf", "the 3 items".
    static func words(for payloads: [NearbyPayload]) -> String {
        guard payloads.count == 1 else { return "the \(payloads.count) items" }
        switch payloads[0] {
        case .text: return "the text"
        case .file(let url): return words(name: url.lastPathComponent, type: UTType.type(ofFileAt: url))
        case .data(_, let filename, let mimeType):
            return words(name: filename, type: UTType(mimeType: mimeType) ?? .data)
        }
    }

    private static func words(name: String, type: UTType) -> String {
        if type.conforms(to: .image) { return "the photo" }
        if type.conforms(to: .movie) { return "the video" }
        return name
    }

    /// A LocalSend fingerprint: 64 hex digits (SHA-256), or at least 32 for other peers.
    static func looksLikeFingerprint(_ text: String) -> Bool {
        text.count >= 32 && text.allSatisfy(\.isHexDigit)
    }
}
