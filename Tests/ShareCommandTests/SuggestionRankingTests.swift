// SPEC §12's ranking and the suggestions made from it, without a `share` run: the formula of
// HistoryRanking (half-life, failed shares, kinds, ties), [sheet] settings, and what
// HistorySuggestionSource makes of a real history file and a real vCard folder.
import Foundation
import LocalTestSupport
import ShareHistory
import ShareSheet
import ShareSheetSystem
import ShareSheetTesting
import Testing

@testable import ShareSuggestions

@Suite("The history's ranking (SPEC §12)")
struct HistoryRankingTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// A share to `to` by Mail, `days` before `now`, holding one item of `kind`.
    static func mail(
        to recipient: String, daysAgo days: Double, kind: String = "file", disposition: String = "sent", name: String? = nil
    ) -> HistoryEntry {
        HistoryEntry(
            time: now.addingTimeInterval(-days * 86_400), activityType: ActivityType.mail.rawValue, activity: "mail",
            targets: [HistoryTarget(kind: .recipient, value: recipient, name: name)],
            items: [HistoryEntry.ItemCount(kind: kind, count: 1)], disposition: disposition)
    }

    @Test("a share counts 1 today, 0.5 at 14 days, 0.25 at 28: the half-life is two weeks")
    func halfLife() {
        #expect(HistoryRanking.weight(of: Self.now, now: Self.now) == 1)
        #expect(abs(HistoryRanking.weight(of: Self.now.addingTimeInterval(-14 * 86_400), now: Self.now) - 0.5) < 1e-12)
        #expect(abs(HistoryRanking.weight(of: Self.now.addingTimeInterval(-28 * 86_400), now: Self.now) - 0.25) < 1e-12)
        let ranking = HistoryRanking.rank([Self.mail(to: "ana@example.com", daysAgo: 14)], kinds: [], now: Self.now)
        #expect(abs((ranking.targets.first?.score ?? 0) - 0.5) < 1e-12)
        #expect(ranking.targets.first?.uses == 1)
    }

    @Test("frequency and recency add up: three old shares can outweigh one new one, and a new one outweighs two very old")
    func frequencyAndRecency() {
        let shares =
            [Self.mail(to: "ana@example.com", daysAgo: 10), Self.mail(to: "ana@example.com", daysAgo: 12),
             Self.mail(to: "ana@example.com", daysAgo: 14), Self.mail(to: "bo@example.com", daysAgo: 0),
             Self.mail(to: "cy@example.com", daysAgo: 60), Self.mail(to: "cy@example.com", daysAgo: 70)]
        let ranking = HistoryRanking.rank(shares, kinds: [], now: Self.now)
        #expect(ranking.targets.map(\.target.value) == ["ana@example.com", "bo@example.com", "cy@example.com"])
        let ana = ranking.targets[0]
        #expect(ana.uses == 3)
        #expect(ana.lastUsed == Self.now.addingTimeInterval(-10 * 86_400))
        #expect(abs(ana.score - (exp2(-10 / 14.0) + exp2(-12 / 14.0) + 0.5)) < 1e-12)
        #expect(ranking.activities.map(\.activity) == ["mail"])
        #expect(ranking.activities.first?.uses == 6)
    }

    @Test("a failed share does not count; queued and cancelled-with-work ones do")
    func failedSharesDoNotCount() {
        let shares = [
            Self.mail(to: "ana@example.com", daysAgo: 0, disposition: "failed"),
            Self.mail(to: "ana@example.com", daysAgo: 0, disposition: "failed"),
            Self.mail(to: "bo@example.com", daysAgo: 0, disposition: "queued"),
        ]
        let ranking = HistoryRanking.rank(shares, kinds: [], now: Self.now)
        #expect(ranking.targets.map(\.target.value) == ["bo@example.com"])
        #expect(ranking.activities.first?.uses == 1)
    }

    @Test("per kind of item: images rank those who got images, files those who got files")
    func perKind() {
        let shares = [
            Self.mail(to: "ana@example.com", daysAgo: 0, kind: "image"),
            Self.mail(to: "ana@example.com", daysAgo: 1, kind: "image"),
            Self.mail(to: "bo@example.com", daysAgo: 0, kind: "file"),
        ]
        #expect(HistoryRanking.rank(shares, kinds: ["image"], now: Self.now).targets.map(\.target.value) == ["ana@example.com"])
        #expect(HistoryRanking.rank(shares, kinds: ["file"], now: Self.now).targets.map(\.target.value) == ["bo@example.com"])
        #expect(HistoryRanking.rank(shares, kinds: ["link"], now: Self.now).targets.isEmpty)
        // No kinds asked for: every share counts.
        #expect(HistoryRanking.rank(shares, kinds: [], now: Self.now).targets.count == 2)
    }

    @Test("equal scores go by name, letter case aside; one address in two cases is one target with the newest name")
    func tiesByName() {
        let shares = [
            Self.mail(to: "zed@example.com", daysAgo: 3),
            Self.mail(to: "Bo@example.com", daysAgo: 3, name: "bo"),
            Self.mail(to: "ana@example.com", daysAgo: 3, name: "Ana Lima"),
            Self.mail(to: "bo@example.com", daysAgo: 3, name: "Bo Berg"),
            Self.mail(to: "cy@example.com", daysAgo: 3),
            Self.mail(to: "cy@example.com", daysAgo: 3),
        ]
        let ranking = HistoryRanking.rank(shares, kinds: [], now: Self.now)
        #expect(ranking.targets.map(\.title) == ["Bo Berg", "cy@example.com", "Ana Lima", "zed@example.com"])
        #expect(ranking.targets[0].uses == 2)
    }

    @Test("ShareHistory.ranking reads the same from the file as HistoryRanking.rank from the entries")
    func fileAgreesWithTheFormula() throws {
        let folder = try TemporaryFolder("ranking-file")
        defer { folder.remove() }
        let history = ShareHistory(databaseURL: folder.url.appendingPathComponent("history.sqlite"))
        let shares = [
            Self.mail(to: "ana@example.com", daysAgo: 1), Self.mail(to: "ana@example.com", daysAgo: 20),
            Self.mail(to: "bo@example.com", daysAgo: 0, kind: "image"),
            Self.mail(to: "cy@example.com", daysAgo: 0, disposition: "failed"),
        ]
        for share in shares { _ = try history.record(share, keepDays: 90, now: Self.now) }
        let read = try history.ranking(for: ["file"], now: Self.now).ranking
        let computed = HistoryRanking.rank(shares, kinds: ["file"], now: Self.now)
        #expect(read.targets.map(\.target.value) == computed.targets.map(\.target.value))
        #expect(zip(read.targets, computed.targets).allSatisfy { abs($0.score - $1.score) < 1e-6 })
        #expect(read.targets.map(\.target.value) == ["ana@example.com"])
    }
}

@Suite("[sheet] settings")
struct SheetSettingsTests {
    @Test("nothing set: ordered by use, with suggestions")
    func defaults() throws {
        #expect(try SheetSettings(configuration: Configuration([:])) == .default)
        #expect(SheetSettings.default.ordersByUse && SheetSettings.default.suggests)
    }

    @Test("order=fixed and suggestions=false turn each off; by-use and true keep them on")
    func values() throws {
        let off = try SheetSettings(configuration: Configuration(["sheet": ["order": "fixed", "suggestions": "false"]]))
        #expect(off == SheetSettings(ordersByUse: false, suggests: false))
        let on = try SheetSettings(configuration: Configuration(["sheet": ["order": " By-Use ", "suggestions": "true"]]))
        #expect(on == .default)
    }

    @Test("a value the key does not take is a configuration error naming the key and what it takes")
    func wrongValues() {
        for (key, value, advice) in [("order", "random", "by-use or fixed"), ("suggestions", "maybe", "true or false")] {
            do {
                _ = try SheetSettings(configuration: Configuration(["sheet": [key: value]]))
                Issue.record("\(key)=\(value) was taken")
            } catch let error as ShareError {
                #expect(error.kind == .configuration)
                #expect(error.message.contains(key) && error.message.contains(advice), "\(error.message)")
            } catch {
                Issue.record("\(error)")
            }
        }
    }
}

/// An activity of one type on the sheet, for the candidates' "offered".
final class OfferedActivity: Activity {
    let type: ActivityType
    init(_ type: ActivityType) { self.type = type }
    override var activityType: ActivityType? { type }
    override var activityTitle: String? { type.rawValue }
}

@Suite("Suggestions from the history, the contacts and the settings", .serialized)
@MainActor
struct HistorySuggestionSourceTests {
    let home: TemporaryHome
    var environment: HostEnvironment { HostEnvironment(variables: home.environment) }
    let offered: [Activity] = [OfferedActivity(.mail), OfferedActivity(.message), OfferedActivity(.airDrop)]

    init() throws {
        home = try TemporaryHome(prefix: "suggestion-source")
    }

    /// Records a share to `recipient` by `type`, now, holding a file.
    func share(to recipient: String, by type: ActivityType = .mail, kind: String = "text") throws {
        _ = try ShareHistory(directories: environment.directories).record(
            HistoryEntry(
                time: Date(), activityType: type.rawValue, activity: type == .mail ? "mail" : "message",
                targets: [HistoryTarget(kind: .recipient, value: recipient)], items: [.init(kind: kind, count: 1)],
                disposition: "sent"),
            keepDays: 90)
    }

    /// Writes a vCard to the default contacts folder.
    func contact(_ name: String, email: String? = nil, tel: String? = nil) throws {
        let folder = home.dataHome.appendingPathComponent("contacts/default")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var card = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(UUID().uuidString)\r\nFN:\(name)\r\nN:\(name);;;;\r\n"
        if let email { card += "EMAIL:\(email)\r\n" }
        if let tel { card += "TEL:\(tel)\r\n" }
        card += "END:VCARD\r\n"
        try Data(card.utf8).write(to: folder.appendingPathComponent("\(UUID().uuidString).vcf"))
    }

    func configure(_ text: String) throws {
        try FileManager.default.createDirectory(at: home.configFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: home.configFile)
    }

    static let file = ItemKind.string

    @Test("the history's people first, by score; then contacts by name; a contact's name titles an address it has")
    func historyThenContacts() throws {
        try share(to: "bo@example.com")
        try share(to: "zoe@example.com")
        try share(to: "zoe@example.com")
        try contact("Zoë Adams", email: "ZOE@example.com")
        try contact("Cy Brandt", email: "cy@example.com")
        try contact("Ana Lima", email: "ana@example.com", tel: "+49 151 2345")
        let source = HistorySuggestionSource(environment: environment)
        let ids = source.suggestions(for: [Self.file], offered: offered).map(\.id)
        #expect(ids == ["mail:zoe@example.com", "mail:bo@example.com", "mail:ana@example.com", "message:+49 151 2345", "mail:cy@example.com"])
        let zoe = try #require(source.suggestions(for: [Self.file], offered: offered).first)
        #expect(zoe.title == "Zoë Adams")
        #expect(zoe.presets == ["to": "zoe@example.com"])
        let candidates = source.candidates(for: [Self.file], offered: offered)
        #expect(candidates.map(\.origin) == [.history, .history, .contact, .contact, .contact])
        #expect(candidates.first?.uses == 2)
    }

    @Test("a contact with a number is suggested for Message, sending to that number")
    func messageForANumber() throws {
        try contact("Ana Lima", tel: "+49 151 2345")
        let source = HistorySuggestionSource(environment: environment)
        let suggestion = try #require(source.suggestions(for: [Self.file], offered: offered).first)
        #expect(suggestion.activityType == .message)
        #expect(suggestion.presets == ["to": "+49 151 2345"])
        #expect(suggestion.title == "Ana Lima")
        // Without Message on the sheet it is a candidate, not a suggestion.
        #expect(source.suggestions(for: [Self.file], offered: [OfferedActivity(.mail)]).isEmpty)
        #expect(source.candidates(for: [Self.file], offered: [OfferedActivity(.mail)]).map(\.isOffered) == [false])
    }

    @Test("at most 8 are suggested, and with a limit the contacts past it are not read into candidates")
    func limitOfEight() throws {
        for number in 0..<12 { try contact("Person \(String(format: "%02d", number))", email: "p\(number)@example.com") }
        let source = HistorySuggestionSource(environment: environment)
        let suggestions = source.suggestions(for: [Self.file], offered: offered)
        #expect(suggestions.count == ActivityViewController.suggestionLimit)
        #expect(suggestions.first?.title == "Person 00")
        #expect(source.candidates(for: [Self.file], offered: offered, limit: 8).count == 8)
        #expect(source.candidates(for: [Self.file], offered: offered).count == 12)
    }

    @Test("[sheet] suggestions=false suggests nobody; order=fixed orders nothing; by-use puts the activity used first")
    func settingsTurnThemOff() throws {
        try share(to: "+4915100", by: .message)
        try contact("Ana Lima", email: "ana@example.com")
        #expect(HistorySuggestionSource(environment: environment).recentTypes(for: [Self.file]) == [.message])
        try configure("[sheet]\nsuggestions=false\norder=fixed\n")
        let source = HistorySuggestionSource(environment: environment)
        #expect(source.suggestions(for: [Self.file], offered: offered).isEmpty)
        #expect(source.recentTypes(for: [Self.file]).isEmpty)
    }

    @Test("[history] enabled=false leaves the history out; contacts are still suggested")
    func historyOff() throws {
        try share(to: "bo@example.com")
        try contact("Ana Lima", email: "ana@example.com")
        try configure("[history]\nenabled=false\n")
        let source = HistorySuggestionSource(environment: environment)
        #expect(source.suggestions(for: [Self.file], offered: offered).map(\.id) == ["mail:ana@example.com"])
    }

    @Test("a controller with the source shows its suggestions and orders the row by use; without one, §1.6's order")
    func controllerOrder() throws {
        let registry = ActivityRegistry()
        InMemoryBackends().install(into: registry)
        let plain = ActivityViewController(activityItems: ["hello"], applicationActivities: nil, registry: registry)
        let builtIn = plain.sheet.shareRow.compactMap(\.activityType)
        let mail = try #require(builtIn.firstIndex(of: .mail))
        let message = try #require(builtIn.firstIndex(of: .message))
        #expect(plain.suggestions.isEmpty)
        // The one the built-in order puts second is used, so by use it comes first.
        let later: ActivityType = mail < message ? .message : .mail
        try share(to: later == .mail ? "ana@example.com" : "+4915100", by: later)
        #expect(plain.sheet.shareRow.compactMap(\.activityType) == builtIn, "a library caller's order changed")
        let ordered = ActivityViewController(activityItems: ["hello"], applicationActivities: nil, registry: registry)
        let source = HistorySuggestionSource(environment: environment)
        ordered.suggestionSource = source
        ordered.history = source
        #expect(ordered.sheet.shareRow.compactMap(\.activityType).first == later)
        #expect(ordered.suggestions.map(\.id) == [later == .mail ? "mail:ana@example.com" : "message:+4915100"])
        try configure("[sheet]\norder=fixed\n")
        let fixed = ActivityViewController(activityItems: ["hello"], applicationActivities: nil, registry: registry)
        let fixedSource = HistorySuggestionSource(environment: environment)
        fixed.suggestionSource = fixedSource
        fixed.history = fixedSource
        #expect(fixed.sheet.shareRow.compactMap(\.activityType) == builtIn, "[sheet] order=fixed changed the order")
    }
}
