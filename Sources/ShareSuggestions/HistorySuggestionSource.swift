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

    // MARK: SuggestionSource

    public func suggestions(for kinds: [ItemKind], offered: [Activity]) -> [ActivitySuggestion] {
        guard loadedSettings().sheet.suggests else { return [] }
        return candidates(for: kinds, offered: offered, limit: ActivityViewController.suggestionLimit)
            .filter(\.isOffered).prefix(ActivityViewController.suggestionLimit).map(\.suggestion)
    }

    /// Every candidate for items of `kinds`, best first, with the parts of its score; those
    /// whose activity is not on the sheet are listed too, marked. With a `limit`, contacts stop
    /// once that many offered candidates are found (a sheet shows no more).
    public func candidates(for kinds: [ItemKind], offered: [Activity], limit: Int? = nil) -> [SuggestionCandidate] {
        let ranking = self.ranking(for: kinds)
        var byType: [ActivityType: Activity] = [:]
        for activity in offered { if let type = activity.activityType, byType[type] == nil { byType[type] = activity } }
        let contacts: ContactDirectory
        if let configuration = try? environment.loadConfiguration() {
            contacts = ContactDirectory.load(configuration: configuration, directories: environment.directories)
        } else {
            contacts = ContactDirectory()
        }
        let making = SuggestionMaking(
            offered: byType, contacts: contacts,
            applicationName: { id in
                DesktopApplicationCatalog().application(withID: id).map { ($0.name, $0.iconName) }
            })
        var made = making.candidates(ranking: ranking, pinnedDevices: pinnedDevices())
        // A device under a pinned alias with another certificate is never offered.
        made.removeAll { candidate in
            guard candidate.suggestion.activityType == .airDrop, let fingerprint = candidate.suggestion.presets["fingerprint"]
            else { return false }
            return isImpostor(candidate.suggestion.title, fingerprint)
        }
        if let limit {
            var offeredCount = 0
            made = Array(made.prefix { candidate in
                if offeredCount >= limit { return false }
                if candidate.isOffered { offeredCount += 1 }
                return true
            })
        }
        return made
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
                let (read, warnings) = try ShareHistory(directories: environment.directories).ranking(for: names)
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
