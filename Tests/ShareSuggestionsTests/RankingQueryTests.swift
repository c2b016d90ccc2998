import Foundation
import LocalTestSupport
import ShareHistory
import ShareSheetSystem
import Testing

/// `ShareHistory.ranking` adds the formula up in SQLite; `HistoryRanking.rank` adds it up share
/// by share in Swift. Over the same history they must agree: targets merged without letter case,
/// the newest name, the first spelling, failed shares and other kinds left out.
@Suite("The history's ranking query")
struct RankingQueryTests {
    /// A history with what the merge has to get right: one address spelled two ways, a device
    /// renamed, shares that failed, several kinds of items and no targets at all.
    static func entries(now: Date) -> [HistoryEntry] {
        var made: [HistoryEntry] = []
        var state: UInt64 = 26
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        let kinds = [["image"], ["text"], ["file"], ["image", "file"], ["link"]]
        for number in 0..<400 {
            let time = now.addingTimeInterval(-next() * 80 * 86_400)
            let items = kinds[Int(next() * Double(kinds.count))].map { HistoryEntry.ItemCount(kind: $0, count: 1) }
            let disposition = number.isMultiple(of: 17) ? "failed" : "sent"
            switch number % 5 {
            case 0, 1:
                let person = Int(next() * 12)
                let address = person == 3 && number.isMultiple(of: 2) ? "Person3@Example.com" : "person\(person)@example.com"
                made.append(
                    HistoryEntry(
                        time: time, activityType: "com.apple.UIKit.activity.Mail", activity: "mail",
                        targets: [HistoryTarget(kind: .recipient, value: address), HistoryTarget(kind: .recipient, value: "team@example.com")],
                        items: items, disposition: disposition))
            case 2:
                let device = Int(next() * 4)
                made.append(
                    HistoryEntry(
                        time: time, activityType: "com.apple.UIKit.activity.AirDrop", activity: "airdrop",
                        targets: [HistoryTarget(kind: .device, value: String(repeating: "ab\(device)", count: 8), name: "Phone \(number)")],
                        items: items, disposition: disposition))
            case 3:
                made.append(
                    HistoryEntry(
                        time: time, activityType: "com.apple.UIKit.activity.Print", activity: "print",
                        targets: [HistoryTarget(kind: .printer, value: "Printer \(Int(next() * 5))")], items: items,
                        disposition: disposition))
            default:
                made.append(
                    HistoryEntry(
                        time: time, activityType: "com.apple.UIKit.activity.CopyToPasteboard", activity: "copy", targets: [],
                        items: items, disposition: disposition))
            }
        }
        return made
    }

    @Test("the query and the share-by-share sum agree, for every set of kinds", arguments: [[], ["image"], ["text", "link"], ["file"]])
    func agree(kinds: [String]) throws {
        let home = try TemporaryHome(prefix: "ranking-query")
        defer { home.remove() }
        let history = ShareHistory(directories: XDGDirectories(environment: home.environment))
        let now = Date()
        for entry in Self.entries(now: now).sorted(by: { $0.time < $1.time }) { try history.record(entry, keepDays: 90, now: now) }
        let queried = try history.ranking(for: Set(kinds), now: now).ranking
        // In the order they were recorded, as the query reads them: the first spelling of an address stays.
        let summed = HistoryRanking.rank(try history.entries().entries.sorted { $0.id < $1.id }, kinds: Set(kinds), now: now)
        #expect(!queried.targets.isEmpty)
        #expect(queried.targets.count == summed.targets.count)
        for (query, sum) in zip(queried.targets, summed.targets) {
            #expect(query.target == sum.target)
            #expect(query.activityType == sum.activityType && query.activity == sum.activity)
            #expect(query.uses == sum.uses)
            #expect(abs(query.lastUsed.timeIntervalSince(sum.lastUsed)) < 0.001)
            #expect(abs(query.score - sum.score) < 1e-9 * max(1, sum.score))
        }
        #expect(queried.activities.map(\.activityType) == summed.activities.map(\.activityType))
        #expect(queried.activities.map(\.uses) == summed.activities.map(\.uses))
        #expect(zip(queried.activities, summed.activities).allSatisfy { abs($0.score - $1.score) < 1e-9 * max(1, $1.score) })
    }
}
