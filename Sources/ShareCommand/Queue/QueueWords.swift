import Foundation
import ShareSheetSystem

/// How the command words queued shares.
enum QueueWords {
    /// The items in a few words: "photo.jpg, notes.txt", "a text", "3 files and a text".
    static func items(of share: QueuedShare) -> String {
        let files = share.items.compactMap(\.file)
        let texts = share.items.count - files.count
        var parts: [String] = []
        if files.count <= 2 { parts += files } else { parts.append("\(files.count) files") }
        if texts == 1 { parts.append("a text") } else if texts > 1 { parts.append("\(texts) texts") }
        return parts.joined(separator: files.count <= 2 && texts == 0 ? ", " : " and ")
    }

    /// "just now", "5 min ago", "3 h ago", "2 days ago".
    static func age(since date: Date, now: Date) -> String {
        let seconds = max(0, Int(now.timeIntervalSince(date)))
        switch seconds {
        case ..<60: return "just now"
        case ..<3600: return "\(seconds / 60) min ago"
        case ..<86_400: return "\(seconds / 3600) h ago"
        default:
            let days = seconds / 86_400
            return days == 1 ? "1 day ago" : "\(days) days ago"
        }
    }

    /// The line `flush` and `retry` print for a share that went (or was declined).
    static func sent(_ outcome: QueueFlush.Outcome) -> String {
        let share = outcome.share
        if outcome.declined { return "declined \(share.id): \(share.targetTitle) refused \(items(of: share))\n" }
        return "sent \(share.id) to \(share.targetTitle)\n"
    }

    /// What `outbox show ID` prints for a queued share.
    static func details(of entry: ShareQueue.Entry) -> String {
        let share = entry.share
        var text = "Id: \(share.id)\nKind: \(share.kind.rawValue)\nState: \(entry.state.rawValue)\n"
        text += "To: \(share.targetTitle)\nWhy: \(share.reason)\nQueued: \(share.created.ISO8601Format())\n"
        text += "Attempts: \(share.attempts)\n"
        if let error = share.lastError { text += "Last error: \(error)\n" }
        if share.mayArriveTwice { text += "Note: sent again after an interrupted send; it may arrive twice\n" }
        text += "Folder: \(entry.folder.path)\n\n"
        for item in share.items {
            if let url = entry.url(of: item) {
                text += "File: \(url.path)\n"
            } else if let words = item.text {
                text += "Text: \(words)\n"
            }
        }
        return text
    }
}
