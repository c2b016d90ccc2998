import Foundation
import ShareHistory
import ShareSheet

/// `HistoryRecording.historyKind` for a sheet's items, remembered per type: telling an image
/// file from a movie asks shared-mime-info whether its type conforms (files looked up on disk),
/// and every sheet asks again for the same few types.
@MainActor
enum HistoryKindNames {
    private static let byType = Locked<[String: String]>([:])

    /// `image`, `movie`, `text`, `link` or `file`.
    static func name(_ kind: ItemKind) -> String {
        let type: String
        switch kind {
        case .fileURL(let fileType), .data(let fileType, _), .asset(let fileType): type = fileType.identifier
        default: return HistoryRecording.historyKind(kind)
        }
        if let known = byType.withLock({ $0[type] }) { return known }
        let name = HistoryRecording.historyKind(kind)
        byType.withLock { $0[type] = name }
        return name
    }
}
