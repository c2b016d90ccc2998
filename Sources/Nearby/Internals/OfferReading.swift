import Foundation

/// What the receiver makes of a `prepare-upload` body before it asks anyone: the offer with every
/// name and text a peer chose made safe to show and to save under, or the refusal to answer.
/// Pure (no server, no socket), so the fuzz target `fuzz-localsend` drives the same code.
enum OfferReading {
    /// An offer of files (or of one text).
    case offer(PrepareUploadRequest)
    /// An offer of nothing: answered 204.
    case empty
    /// Refused with an HTTP status and a reason.
    case refused(status: Int, reason: String)

    /// Reads `body`; `ourFingerprint` is this device's, which a sender must not carry.
    static func read(_ body: Data, ourFingerprint: String) -> OfferReading {
        guard var request = try? JSONDecoder().decode(PrepareUploadRequest.self, from: body) else {
            return .refused(status: 400, reason: "the offer is not valid JSON for LocalSend")
        }
        if request.info.fingerprint == ourFingerprint { return .refused(status: 412, reason: "it carries our own fingerprint") }
        request.info.alias = NearbyReceiver.printable(request.info.alias, limit: 64)
        request.info.deviceModel = request.info.deviceModel.map { NearbyReceiver.printable($0, limit: 64) }
        if request.files.isEmpty { return .empty }
        for (id, var offer) in request.files {
            guard offer.size >= 0, !id.isEmpty else { return .refused(status: 400, reason: "a file has no id or a negative size") }
            offer.fileName = NearbyReceiver.safeName(offer.fileName)
            offer.preview = offer.preview.map { NearbyReceiver.printable($0, keepingLines: true) }
            request.files[id] = offer
        }
        return .offer(request)
    }
}

/// The receiver's request checks without a server, for the fuzz target `fuzz-localsend`.
package enum ReceiverRequests {
    /// What the receiver made of a `prepare-upload` body: the status it answers before asking
    /// anyone (200 for an offer it goes on with), and the names and texts it would show and save.
    package struct Offer: Sendable {
        package var status: Int
        package var alias: String?
        package var deviceModel: String?
        package var fileIds: [String] = []
        package var fileNames: [String] = []
        package var previews: [String] = []
    }

    /// The endpoint a request path names, as the receiver routes it.
    package static func endpoint(_ path: String) -> String? { NearbyReceiver.endpoint(path) }

    /// Reads a `prepare-upload` body as the receiver does.
    package static func readOffer(_ body: Data, ourFingerprint: String) -> Offer {
        switch OfferReading.read(body, ourFingerprint: ourFingerprint) {
        case .refused(let status, _): return Offer(status: status)
        case .empty: return Offer(status: 204)
        case .offer(let request):
            let files = request.files.sorted { $0.key < $1.key }
            return Offer(
                status: 200, alias: request.info.alias, deviceModel: request.info.deviceModel, fileIds: files.map(\.key),
                fileNames: files.map(\.value.fileName), previews: files.compactMap(\.value.preview))
        }
    }

    /// `text` as the receiver shows a peer's alias (or, `keepingLines`, a text preview).
    package static func printable(_ text: String, keepingLines: Bool = false, limit: Int = .max) -> String {
        NearbyReceiver.printable(text, keepingLines: keepingLines, limit: limit)
    }
}
