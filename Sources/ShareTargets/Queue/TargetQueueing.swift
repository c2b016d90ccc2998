import Foundation
import ShareSheet
import ShareSheetSystem

/// A share to a D-Bus target as the share queue keeps it, and back: the activity queues a call
/// whose target was not running, and `TargetQueueSender` makes the same call from the entry.
///
/// The items are copied into the entry (a file the person deletes or edits after sharing still
/// goes as it was shared). Links are stored as text, with their positions in `uris`, so they
/// go again as links; the subject and bus name are parameters. Nothing here is a secret.
enum TargetQueueing {
    /// The parameter with the bus name called.
    static let busNameKey = "bus-name"
    /// The parameter with the subject, when there was one.
    static let subjectKey = "subject"
    /// The parameter listing which items (by position, comma-separated) are links.
    static let urisKey = "uris"

    /// Queues `call` to `target`, which was not running, in `queue`.
    /// - Returns: the stored entry.
    /// - Throws: `ShareError` when the entry cannot be written (its items copied).
    static func queue(_ call: TargetBusCall, target: ShareTarget, in queue: ShareQueue) throws -> ShareQueue.Entry {
        var sources: [ShareQueue.Source] = []
        var uris: [String] = []
        for (index, item) in call.items.enumerated() {
            switch item {
            case .text(let text): sources.append(.text(text))
            case .uri(let uri):
                uris.append(String(index))
                sources.append(.text(uri))
            case .file(let path, let name, let mimeType):
                sources.append(.file(URL(fileURLWithPath: path), name: name, mimeType: mimeType))
            case .bytes(let data, let name, let mimeType):
                sources.append(.data(data, name: name, mimeType: mimeType))
            }
        }
        var parameters = [busNameKey: call.busName]
        if let subject = call.subject { parameters[subjectKey] = subject }
        if !uris.isEmpty { parameters[urisKey] = uris.joined(separator: ",") }
        let share = QueuedShare(
            kind: .shareTarget, activity: target.activityType.rawValue, target: target.name, targetTitle: target.title,
            reason: "\(target.title) was not running.", waitsFor: .busName(call.busName), parameters: parameters,
            items: [])
        return try queue.add(share, sources: sources)
    }

    /// The call that sends `entry` to its target, files from the entry's copies.
    static func call(
        for entry: ShareQueue.Entry, timeout: Double, busAddress: String?, temporaryFolder: String
    ) throws -> TargetBusCall {
        let share = entry.share
        let busName: String
        if case .busName(let name) = share.waitsFor {
            busName = name
        } else if let name = share.parameters[busNameKey] {
            busName = name
        } else {
            throw ShareError(.badData, "queue: \(share.id) names no bus name to send to")
        }
        let uris = Set((share.parameters[urisKey] ?? "").split(separator: ",").compactMap { Int($0) })
        var items: [TargetItem] = []
        for (index, item) in share.items.enumerated() {
            if let url = entry.url(of: item), let name = item.file {
                items.append(.file(path: url.path, name: name, mimeType: item.mimeType))
            } else if let text = item.text {
                items.append(uris.contains(index) ? .uri(text) : .text(text))
            }
        }
        return TargetBusCall(
            title: share.targetTitle, busName: busName, items: items, subject: share.parameters[subjectKey],
            timeout: timeout, busAddress: busAddress, temporaryFolder: temporaryFolder)
    }

    /// What a fallback calls the items: "the photo", "the file", "the text", "the 3 items".
    static func phrase(for items: [TargetItem]) -> String {
        guard items.count == 1, let item = items.first else { return "the \(items.count) items" }
        switch item {
        case .text: return "the text"
        case .uri: return "the link"
        case .file(_, _, let mimeType), .bytes(_, _, let mimeType):
            return mimeType?.hasPrefix("image/") == true ? "the photo" : "the file"
        }
    }
}
