import Foundation

/// `ShareHistory.ranking`'s reading: the formula added up by SQLite, one row per target and
/// activity, instead of one row per share and target turned into Swift values and added up here
/// (10,000 shares made 15,000 rows and as many sets of strings; BENCHMARKS.md, "Suggestions").
///
/// SQLite groups by the exact value; targets that differ only in letter case (`Ana@` and `ana@`)
/// are one in `HistoryRanking`, so groups are merged here by the lowercased value, as
/// `HistoryRanking.Tally` keys them. Each group brings what a merge needs: the first share's id
/// (whose spelling of the value stays) and its newest name with the share's time, id and
/// position in front (`max` of that text is the name the last share gave).
enum RankingQuery {
    /// The shares that count: not failed, and holding an item of one of the kinds (`,image,`),
    /// with their weight `2^(−age / half-life)`. `pow` is one of SQLite's math functions.
    private static let counted = """
        WITH counted AS (
            SELECT s.id, s.time, s.activity_type, s.activity, pow(2.0, -max(0.0, ?2 - s.time) / ?3) AS weight
            FROM shares s
            WHERE s.disposition != 'failed' AND (?1 = '' OR EXISTS (
                SELECT 1 FROM share_items i WHERE i.share_id = s.id AND instr(?1, ',' || i.kind || ',') > 0))
        )
        """

    /// The width of the time, id and position in front of a name.
    private static let stampWidth = 15 + 12 + 6

    /// The ranking for `kinds` at `now`.
    /// - Throws: `SQLiteError` (also where SQLite was built without its math functions, which
    ///   Debian's is not: the sheet then goes without suggestions from the history).
    static func ranking(_ connection: SQLiteConnection, kinds: Set<String>, now: Date) throws -> HistoryRanking {
        let parameters: [SQLiteStatement.Value] = [
            .text(kinds.isEmpty ? "" : "," + kinds.sorted().joined(separator: ",") + ","),
            .real(now.timeIntervalSince1970 * 1000), .real(HistoryRanking.halfLifeDays * 86_400_000),
        ]
        // One statement, so the shares that count are found once (a CTE used twice is
        // materialized): first a row per activity (`kind` NULL), then a row per target.
        let rows = try connection.prepare(
            counted + """
                SELECT NULL, NULL, activity_type, max(activity), count(*), max(time), sum(weight), NULL, NULL
                FROM counted GROUP BY activity_type
                UNION ALL
                SELECT t.kind, t.value, c.activity_type, max(c.activity), count(*), max(c.time), sum(c.weight), min(c.id),
                    max(CASE WHEN t.name IS NOT NULL THEN printf('%015d%012d%06d', c.time, c.id, t.position) || t.name END)
                FROM counted c JOIN share_targets t ON t.share_id = c.id
                GROUP BY t.kind, t.value, c.activity_type
                """)
        try rows.bind(parameters)
        var activities: [RankedActivity] = []
        var merged: [HistoryRanking.Tally.TargetKey: (ranked: RankedTarget, first: Int, named: String)] = [:]
        while try rows.step() {
            guard let kindName = rows.text(at: 0) else {
                activities.append(
                    RankedActivity(
                        activityType: rows.text(at: 2) ?? "", activity: rows.text(at: 3) ?? "", uses: rows.int(at: 4),
                        lastUsed: date(rows.int(at: 5)), score: rows.double(at: 6)))
                continue
            }
            // A kind a later build added reads as what it is closest to: a recipient.
            let kind = HistoryTarget.Kind(rawValue: kindName) ?? .recipient
            let value = rows.text(at: 1) ?? ""
            let activityType = rows.text(at: 2) ?? ""
            let named = rows.text(at: 8) ?? ""
            let name = named.isEmpty ? nil : String(decoding: named.utf8.dropFirst(stampWidth), as: UTF8.self)
            let ranked = RankedTarget(
                target: HistoryTarget(kind: kind, value: value, name: name), activityType: activityType,
                activity: rows.text(at: 3) ?? "", uses: rows.int(at: 4), lastUsed: date(rows.int(at: 5)),
                score: rows.double(at: 6))
            let first = rows.int(at: 7)
            let key = HistoryRanking.Tally.TargetKey(kind: kind, value: value.lowercased(), activityType: activityType)
            guard var known = merged[key] else {
                merged[key] = (ranked, first, named)
                continue
            }
            known.ranked.uses += ranked.uses
            known.ranked.score += ranked.score
            known.ranked.lastUsed = max(known.ranked.lastUsed, ranked.lastUsed)
            if first < known.first {
                (known.ranked.target.value, known.ranked.activity, known.first) = (value, ranked.activity, first)
            }
            if named > known.named {
                (known.ranked.target.name, known.named) = (name, named)
            }
            merged[key] = known
        }
        return HistoryRanking(ordering: merged.values.map(\.ranked), activities)
    }

    private static func date(_ milliseconds: Int) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }
}
