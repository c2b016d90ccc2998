import Foundation

/// What the history says about whom and what to put first, for items of some kinds (SPEC §12).
///
/// **The formula.** Each share that went somewhere (any disposition but `failed`) and held an
/// item of one of the kinds asked for counts for its activity and for each of its targets with
/// the weight `2^(−age / 14 days)`: a share today counts 1, two weeks ago ½, four weeks ago ¼.
/// A score is the sum of those weights: frequency, with recency decaying it (half-life 14
/// days). Higher scores come first; equal scores go by name (letter case aside), then by
/// activity. With no kinds asked for, every share counts.
public struct HistoryRanking: Sendable, Equatable, Encodable {
    /// The people, devices, applications and printers shared with, best first.
    public var targets: [RankedTarget]
    /// The activities used, best first.
    public var activities: [RankedActivity]

    /// The half-life of a share's weight.
    public static let halfLifeDays = 14.0

    /// The weight of a share finished at `time`, seen at `now`.
    public static func weight(of time: Date, now: Date) -> Double {
        let days = max(0, now.timeIntervalSince(time)) / 86_400
        return exp2(-days / halfLifeDays)
    }

    /// Describes a ranking.
    public init(targets: [RankedTarget], activities: [RankedActivity]) {
        self.targets = targets
        self.activities = activities
    }
}

/// One target through one activity (Mail to ana@example.com), with the parts of its score.
public struct RankedTarget: Sendable, Equatable, Encodable {
    /// Who or what: its kind, what names it for good, and the last name it was shown by.
    public var target: HistoryTarget
    /// The activity it was reached through.
    public var activityType: String
    /// The activity's short name (`mail`, `airdrop`).
    public var activity: String
    /// How many counted shares went to it: the frequency.
    public var uses: Int
    /// When the last of them finished: the recency.
    public var lastUsed: Date
    /// The sum of the shares' weights (`HistoryRanking.weight`).
    public var score: Double

    /// What a person calls it: its name, else what names it.
    public var title: String { target.name ?? target.value }

    /// Describes a ranked target.
    public init(target: HistoryTarget, activityType: String, activity: String, uses: Int, lastUsed: Date, score: Double) {
        self.target = target
        self.activityType = activityType
        self.activity = activity
        self.uses = uses
        self.lastUsed = lastUsed
        self.score = score
    }

}

/// One activity, with the parts of its score.
public struct RankedActivity: Sendable, Equatable, Encodable {
    /// The activity's type.
    public var activityType: String
    /// The activity's short name.
    public var activity: String
    /// How many counted shares used it.
    public var uses: Int
    /// When the last of them finished.
    public var lastUsed: Date
    /// The sum of the shares' weights.
    public var score: Double

    /// Describes a ranked activity.
    public init(activityType: String, activity: String, uses: Int, lastUsed: Date, score: Double) {
        self.activityType = activityType
        self.activity = activity
        self.uses = uses
        self.lastUsed = lastUsed
        self.score = score
    }

}

extension HistoryRanking {
    /// Adds up `shares` by the formula: the pure part of `ShareHistory.ranking`, for tests and
    /// for callers holding entries already.
    public static func rank(_ shares: [HistoryEntry], kinds: Set<String>, now: Date) -> HistoryRanking {
        var tally = Tally(now: now)
        for share in shares where counts(share, kinds: kinds) {
            tally.add(time: share.time, activityType: share.activityType, activity: share.activity, targets: share.targets)
        }
        return tally.ranking
    }

    /// True when `share` counts for items of `kinds`.
    static func counts(_ share: HistoryEntry, kinds: Set<String>) -> Bool {
        share.disposition != "failed" && (kinds.isEmpty || share.items.contains { kinds.contains($0.kind) })
    }

    /// The running sums, filled share by share (in any order).
    struct Tally {
        let now: Date
        private var targets: [TargetKey: RankedTarget] = [:]
        private var activities: [String: RankedActivity] = [:]
        /// The time of the share each target's name came from, so the newest name wins.
        private var namedAt: [TargetKey: Date] = [:]

        struct TargetKey: Hashable {
            var kind: HistoryTarget.Kind
            var value: String
            var activityType: String
        }

        init(now: Date) { self.now = now }

        mutating func add(time: Date, activityType: String, activity: String, targets shareTargets: [HistoryTarget]) {
            let weight = HistoryRanking.weight(of: time, now: now)
            activities[activityType, default: RankedActivity(activityType: activityType, activity: activity, uses: 0, lastUsed: time, score: 0)]
                .add(time: time, weight: weight)
            for target in shareTargets {
                // Addresses and aliases are told apart without letter case: Ana@ and ana@ are one.
                let key = TargetKey(kind: target.kind, value: target.value.lowercased(), activityType: activityType)
                var ranked = targets[key] ?? RankedTarget(
                    target: target, activityType: activityType, activity: activity, uses: 0, lastUsed: time, score: 0)
                ranked.uses += 1
                ranked.score += weight
                ranked.lastUsed = max(ranked.lastUsed, time)
                if target.name != nil, time >= namedAt[key] ?? .distantPast {
                    ranked.target.name = target.name
                    namedAt[key] = time
                }
                targets[key] = ranked
            }
        }

        var ranking: HistoryRanking { HistoryRanking(ordering: Array(targets.values), Array(activities.values)) }
    }

    /// `targets` and `activities` in the formula's order: higher scores first, equal ones by
    /// name (letter case aside), then by activity.
    init(ordering targets: [RankedTarget], _ activities: [RankedActivity]) {
        self.init(
            targets: targets.sorted { first, second in
                if first.score != second.score { return first.score > second.score }
                let order = first.title.localizedCaseInsensitiveCompare(second.title)
                if order != .orderedSame { return order == .orderedAscending }
                return (first.activity, first.target.value) < (second.activity, second.target.value)
            },
            activities: activities.sorted { first, second in
                if first.score != second.score { return first.score > second.score }
                return first.activity < second.activity
            })
    }
}

extension RankedActivity {
    fileprivate mutating func add(time: Date, weight: Double) {
        uses += 1
        score += weight
        lastUsed = max(lastUsed, time)
    }
}
