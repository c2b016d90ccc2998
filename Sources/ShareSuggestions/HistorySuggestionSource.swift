import Foundation
import OpenIn
import ShareHistory
import ShareSheet
import ShareSheetSystem

/// The suggestions and the activity order of SPEC §12, from the history the person owns: what
/// the command, the window and the service install on every controller they make.
///
/// It reads the history once per sheet (one query, `ShareHistory.ranking`), for the kinds of
/// the sheet's items, and the contacts folder when the history names an address or leaves
/// room for contacts. `[sheet] suggestions=false` suggests nobody; `[sheet] order=fixed` keeps
/// the activities in their built-in order; `[history] enabled=false` leaves the history out
/// (contacts and pinned devices are still suggested: they are the person's own lists).
@MainActor
public final class HistorySuggestionSource: SuggestionSource, ActivityHistory {
    private let environment: HostEnvironment
    /// The devices the person pinned (`share devices pin`), read when a sheet is built.
    public var pinnedDevices: @MainActor () -> [PinnedDevice] = { [] }
    /// True for a device that shows a pinned device's alias with another fingerprint: never suggested.
    public var isImpostor: @MainActor (_ alias: String, _ fingerprint: String) -> Bool = { _, _ in false }
    /// Said once each: a history file set aside, a configuration value that cannot be used.
    public var warn: @MainActor (String) -> Void = { _ in }
    private var rankings: [Set<String>: HistoryRanking] = [:]
    private var settings: (sheet: SheetSettings, history: HistorySettings)?
    private var warned: Set<String> = []

    /// Suggestions from the history, contacts and devices of `environment`.
    public init(environment: HostEnvironment) {
        self.environment = environment
    }

    /// Forgets what this process kept between sheets (the contacts, the rankings), so the next
    /// sheet reads them as a new process would: for share-bench's cold builds.
    package static func emptyProcessCaches() {
        ContactIndex.forgetKept()
        RankingCache.forget()
    }

    // MARK: SuggestionSource

    public func suggestions(for kinds: [ItemKind], offered: [Activity]) -> [ActivitySuggestion] {
        guard loadedSettings().sheet.suggests else { return [] }
        return candidates(for: kinds, offered: offered, limit: ActivityViewController.suggestionLimit)
            .filter(\.isOffered).prefix(ActivityViewController.suggestionLimit).map(\.suggestion)
    }

    /// Every candidate for items of `kinds`, best first, with the parts of its score; those
    /// whose activity is not on the sheet are listed too, marked. With a `limit`, candidates stop
    /// once that many offered ones are found (a sheet shows no more).
    ///
    /// The contacts are read only when they change the answer: when a person the history ranks
    /// is among the candidates (the contacts give their name and photo), or when the history
    /// and the pinned devices leave room for contacts.
    public func candidates(for kinds: [ItemKind], offered: [Activity], limit: Int? = nil) -> [SuggestionCandidate] {
        let ranking = self.ranking(for: kinds)
        var byType: [ActivityType: Activity] = [:]
        for activity in offered { if let type = activity.activityType, byType[type] == nil { byType[type] = activity } }
        let pinned = pinnedDevices()
        func made(with contacts: ContactDirectory) -> [SuggestionCandidate] {
            let making = SuggestionMaking(
                offered: byType, contacts: contacts,
                applicationName: { id in
                    DesktopApplicationCatalog().application(withID: id).map { ($0.name, $0.iconName) }
                },
                // A device under a pinned alias with another certificate is never offered.
                isImpostor: isImpostor)
            return making.candidates(ranking: ranking, pinnedDevices: pinned, limit: limit)
        }
        let withoutContacts = made(with: ContactDirectory())
        let namesPeople = withoutContacts.contains { $0.origin == .history && $0.suggestion.presets["to"] != nil && $0.suggestion.activityType != .airDrop }
        let offeredCount = withoutContacts.filter(\.isOffered).count
        guard namesPeople || limit.map({ offeredCount < $0 }) ?? true else { return withoutContacts }
        return made(with: contacts())
    }

    /// The contacts of the configured folder, through the contacts index.
    private func contacts() -> ContactDirectory {
        guard let configuration = try? environment.loadConfiguration() else { return ContactDirectory() }
        return ContactDirectory.load(configuration: configuration, directories: environment.directories)
    }

    // MARK: ActivityHistory

    public var recentTypes: [ActivityType] { recentTypes(for: []) }

    public func recentTypes(for kinds: [ItemKind]) -> [ActivityType] {
        guard loadedSettings().sheet.ordersByUse else { return [] }
        return ranking(for: kinds).activities.filter { $0.score > 0 }.map { ActivityType($0.activityType) }
    }

    /// Nothing: a share is recorded when it finishes (`HistoryRecording`), with its targets.
    public func record(_ type: ActivityType) {}

    // MARK: Internals

    /// The history's ranking for `kinds`, read once per set of kinds.
    public func ranking(for kinds: [ItemKind]) -> HistoryRanking {
        let names = Set(kinds.map(HistoryRecording.historyKind))
        if let known = rankings[names] { return known }
        var ranking = HistoryRanking(targets: [], activities: [])
        if loadedSettings().history.enabled {
            do {
                let history = ShareHistory(directories: environment.directories)
                let (read, warnings) = try RankingCache.ranking(of: history, kinds: names) { try history.ranking(for: names) }
                ranking = read
                warnings.forEach(say)
            } catch {
                say("history: no suggestions from it: \((error as? ShareError)?.message ?? "\(error)")")
            }
        }
        rankings[names] = ranking
        return ranking
    }

    private func loadedSettings() -> (sheet: SheetSettings, history: HistorySettings) {
        if let settings { return settings }
        var loaded = (sheet: SheetSettings.default, history: HistorySettings.default)
        // A file that cannot be read is said by the share itself; the defaults stand here.
        if let configuration = try? environment.loadConfiguration() {
            do { loaded.sheet = try SheetSettings(configuration: configuration) } catch { say((error as? ShareError)?.message ?? "\(error)") }
            do { loaded.history = try HistorySettings(configuration: configuration) } catch {
                say((error as? ShareError)?.message ?? "\(error)")
            }
        }
        settings = loaded
        return loaded
    }

    private func say(_ warning: String) {
        if warned.insert(warning).inserted { warn(warning) }
    }
}
