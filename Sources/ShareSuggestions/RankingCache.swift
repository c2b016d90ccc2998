import Foundation
import ShareHistory
import ShareSheet

/// The history's rankings this process read, kept while the history's files stay as they were,
/// so a second sheet (the service builds many) does not query 10,000 shares again.
///
/// A kept ranking stays right as time passes: every score is a sum of `2^(−age / half-life)`, so
/// after `t` more seconds each one is the old score times `2^(−t / half-life)`, and the order
/// does not change. It is kept only when no share it counts lies after the time it was read for
/// (a share from the future weighs 1 until its time comes, which scaling would not follow).
enum RankingCache {
    /// A file as `stat` sees it: any write, truncation or replacement changes one of these.
    private struct FileStamp: Equatable {
        var inode: UInt64
        var size: Int64
        var modified: Int128
        var changed: Int128

        init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modified = Int128(info.st_mtim.tv_sec) * 1_000_000_000 + Int128(info.st_mtim.tv_nsec)
            changed = Int128(info.st_ctim.tv_sec) * 1_000_000_000 + Int128(info.st_ctim.tv_nsec)
        }
    }

    /// The database and its write-ahead log, where every share since the last checkpoint is.
    private struct Stamp: Equatable {
        var database: FileStamp?
        var log: FileStamp?
    }

    private struct Kept {
        var stamp: Stamp
        var now: Date
        var ranking: HistoryRanking
    }

    private static let kept = Locked<[String: Kept]>([:])

    /// Forgets every kept ranking.
    static func forget() { kept.withLock { $0 = [:] } }

    /// The ranking of `history` for `kinds` at `now`: the kept one scaled to `now`, or `read()`'s.
    static func ranking(
        of history: ShareHistory, kinds: Set<String>, now: Date = Date(),
        read: () throws -> (ranking: HistoryRanking, warnings: [String])
    ) rethrows -> (ranking: HistoryRanking, warnings: [String]) {
        let path = history.databaseURL.path
        let key = path + "\u{0}" + kinds.sorted().joined(separator: ",")
        let stamp = Stamp(database: FileStamp(path: path), log: FileStamp(path: path + "-wal"))
        if let known = kept.withLock({ $0[key] }), known.stamp == stamp, now >= known.now {
            return (scaled(known.ranking, by: HistoryRanking.weight(of: known.now, now: now)), [])
        }
        let read = try read()
        let newest = (read.ranking.activities.map(\.lastUsed) + read.ranking.targets.map(\.lastUsed)).max() ?? .distantPast
        // Kept only when the files did not change while they were read.
        if newest <= now, stamp.database != nil, stamp == Stamp(database: FileStamp(path: path), log: FileStamp(path: path + "-wal")) {
            kept.withLock { $0[key] = Kept(stamp: stamp, now: now, ranking: read.ranking) }
        }
        return read
    }

    private static func scaled(_ ranking: HistoryRanking, by factor: Double) -> HistoryRanking {
        guard factor != 1 else { return ranking }
        var scaled = ranking
        for index in scaled.targets.indices { scaled.targets[index].score *= factor }
        for index in scaled.activities.indices { scaled.activities[index].score *= factor }
        return scaled
    }
}
