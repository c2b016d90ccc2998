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
    private struct Kept {
        var stamp: HistoryStamp
        var now: Date
        var ranking: HistoryRanking
        /// Tells this reading from any other of the process.
        var generation: Int
    }

    private static let kept = Locked<(rankings: [String: Kept], generations: Int)>(([:], 0))

    /// How many times this process read a ranking from the history (for tests).
    static let queries = Locked(0)

    /// Forgets every kept ranking.
    static func forget() { kept.withLock { $0.rankings = [:] } }

    /// The ranking of `history` for `kinds` and what its scores are to be multiplied by to be
    /// those of `now`: the kept one, or `read()`'s (scale 1). Scaling is left to the caller,
    /// which looks at a few targets of hundreds. `generation` names the kept reading (nil when
    /// it was not kept): the same generation is the same ranking. `stamp` is what the
    /// history's files were when it was read (nil when it was not kept).
    static func ranking(
        of history: ShareHistory, kinds: Set<String>, now: Date = Date(),
        read: () throws -> (ranking: HistoryRanking, warnings: [String])
    ) rethrows -> (ranking: HistoryRanking, scale: Double, generation: Int?, stamp: HistoryStamp?, warnings: [String]) {
        let path = history.databaseURL.path
        let key = path + "\u{0}" + kinds.sorted().joined(separator: ",")
        let stamp = HistoryStamp(databasePath: path)
        if let known = kept.withLock({ $0.rankings[key] }), known.stamp == stamp, now >= known.now {
            return (known.ranking, HistoryRanking.weight(of: known.now, now: now), known.generation, known.stamp, [])
        }
        queries.withLock { $0 += 1 }
        let read = try read()
        let newest = (read.ranking.activities.map(\.lastUsed) + read.ranking.targets.map(\.lastUsed)).max() ?? .distantPast
        // Kept only when the files did not change while they were read.
        guard newest <= now, stamp.database != nil,
            stamp == HistoryStamp(databasePath: path)
        else { return (read.ranking, 1, nil, nil, read.warnings) }
        let generation = kept.withLock { kept -> Int in
            kept.generations += 1
            kept.rankings[key] = Kept(stamp: stamp, now: now, ranking: read.ranking, generation: kept.generations)
            return kept.generations
        }
        return (read.ranking, 1, generation, stamp, read.warnings)
    }

    /// `ranking` with every score multiplied by `factor`.
    static func scaled(_ ranking: HistoryRanking, by factor: Double) -> HistoryRanking {
        guard factor != 1 else { return ranking }
        var scaled = ranking
        for index in scaled.targets.indices { scaled.targets[index].score *= factor }
        for index in scaled.activities.indices { scaled.activities[index].score *= factor }
        return scaled
    }
}
