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
    let environment: HostEnvironment
    /// The devices the person pinned (`share devices pin`), read when a sheet is built.
    public var pinnedDevices: @MainActor () -> [PinnedDevice] = { [] }
    /// True for a device that shows a pinned device's alias with another fingerprint: never suggested.
    public var isImpostor: @MainActor (_ alias: String, _ fingerprint: String) -> Bool = { _, _ in false }
    /// Said once each: a history file set aside, a configuration value that cannot be used.
    public var warn: @MainActor (String) -> Void = { _ in }
    var rankings: [Set<String>: KeptRanking] = [:]
    /// The snapshots this source looked up, by kinds (nil: none holds).
    var snapshots: [Set<String>: KeptSnapshot?] = [:]
    /// What the history's files were before the share being recorded (`historyWillRecord`).
    var historyBeforeRecording: HistoryStamp?
    /// The candidates the last sheet showed, for the devices that come into range to join.
    var lastShown: [SuggestionCandidate] = []
    /// Starts looking for LocalSend devices nearby: `found` runs on the main actor with every
    /// device seen so far each time one is found; the closure returned stops looking. Nil: no
    /// devices nearby are suggested (the command sets it from `[nearby]`).
    public var watchNearby: (@MainActor (_ found: @escaping @MainActor ([PinnedDevice]) -> Void) -> @MainActor () -> Void)?
    /// Stops the look for devices nearby that `followSuggestions` started.
    var stopWatchingNearby: (@MainActor () -> Void)?
    /// Tells a follow from the ones before it, whose late findings are dropped.
    var followGeneration = 0
    /// The last sheet's kinds and their history names (a sheet asks twice: suggestions, order).
    private var lastKinds: (kinds: [ItemKind], names: Set<String>)?
    private var settings: (sheet: SheetSettings, history: HistorySettings)?
    /// The configuration the settings came from, for the contacts folder.
    private(set) var configuration: Configuration?
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
        SnapshotCache.forget()
        FinishedSuggestions.forget()
    }

    // MARK: SuggestionSource

    public func suggestions(for kinds: [ItemKind], offered: [Activity]) -> [ActivitySuggestion] {
        let shown = shownCandidates(for: kinds, offered: offered)
        lastShown = shown
        return shown.map(\.suggestion)
    }

    /// The offered candidates a sheet shows, best first, at most `suggestionLimit`.
    private func shownCandidates(for kinds: [ItemKind], offered: [Activity]) -> [SuggestionCandidate] {
        guard loadedSettings().sheet.suggests else { return [] }
        let limit = ActivityViewController.suggestionLimit
        let pinned = pinnedDevices()
        let names = historyNames(for: kinds)
        // What the last share or sheet left ready: a few lines instead of the whole history.
        if let snapshot = snapshot(for: names) {
            let key = FinishedSuggestions.key(names: names, offered: offered)
            if let known = FinishedSuggestions.known(key: key, rankingGeneration: snapshot.generation, pinned: pinned, isImpostor: isImpostor) {
                return known
            }
            let scale = HistoryRanking.weight(of: snapshot.snapshot.made, now: Date())
            let (making, contacts, dropped) = suggestionMaking(offered: offered, scale: scale)
            if let made = making.candidates(snapshot: snapshot.snapshot, pinnedDevices: pinned, limit: limit) {
                let shown = Array(made.filter(\.isOffered).prefix(limit))
                if !dropped.value {
                    FinishedSuggestions.keep(
                        shown, key: key, rankingGeneration: snapshot.generation, pinned: pinned, contacts: contacts.loadedDirectory)
                }
                return shown
            }
        }
        let kept = keptRanking(names: names)
        let key = FinishedSuggestions.key(names: kept.names, offered: offered)
        // Kept only over a ranking this process read and kept (not for no history at all).
        let generation = kept.generation.flatMap { $0 > 0 ? $0 : nil }
        if let generation,
            let known = FinishedSuggestions.known(key: key, rankingGeneration: generation, pinned: pinned, isImpostor: isImpostor)
        {
            return known
        }
        let made = making(kept, offered: offered, pinned: pinned, limit: limit)
        let shown = Array(made.candidates.filter(\.isOffered).prefix(limit))
        if let generation, !made.droppedImpostor {
            FinishedSuggestions.keep(
                shown, key: key, rankingGeneration: generation, pinned: pinned, contacts: made.contacts.loadedDirectory)
        }
        writeSnapshot(of: kept, contacts: made.contacts)
        return shown
    }

    /// Every candidate for items of `kinds`, best first, with the parts of its score; those
    /// whose activity is not on the sheet are listed too, marked. With a `limit`, candidates stop
    /// once that many offered ones are found (a sheet shows no more).
    ///
    /// The contacts are read only when they change the answer: when a person the history ranks
    /// is among the candidates (the contacts give their name and photo), or when the history
    /// and the pinned devices leave room for contacts.
    public func candidates(for kinds: [ItemKind], offered: [Activity], limit: Int? = nil) -> [SuggestionCandidate] {
        making(keptRanking(for: kinds), offered: offered, pinned: pinnedDevices(), limit: limit).candidates
    }

    /// The candidates, with the contacts as they were read (or not) and whether an impostor
    /// was left out.
    private func making(
        _ kept: KeptRanking, offered: [Activity], pinned: [PinnedDevice], limit: Int?
    ) -> (candidates: [SuggestionCandidate], contacts: LazyContacts, droppedImpostor: Bool) {
        let (making, contacts, dropped) = suggestionMaking(offered: offered, scale: kept.scale)
        let candidates = making.candidates(ranking: kept.ranking, pinnedDevices: pinned, limit: limit)
        return (candidates, contacts, dropped.value)
    }

    /// Whether a `SuggestionMaking` left out an impostor, read after it made its candidates.
    final class Flag {
        var value = false
    }

    /// The candidates' maker for a sheet offering `offered`, with its contacts (read when first
    /// needed) and a flag raised when it leaves out an impostor.
    func suggestionMaking(offered: [Activity], scale: Double) -> (SuggestionMaking, LazyContacts, Flag) {
        var byType: [ActivityType: Activity] = [:]
        for activity in offered { if let type = activity.activityType, byType[type] == nil { byType[type] = activity } }
        let contacts = LazyContacts { [unowned self] in self.contacts() }
        let dropped = Flag()
        let making = SuggestionMaking(
            offered: byType, contacts: contacts,
            applicationName: { id in
                DesktopApplicationCatalog().application(withID: id).map { ($0.name, $0.iconName) }
            },
            // A device under a pinned alias with another certificate is never offered.
            isImpostor: { [isImpostor] alias, fingerprint in
                let impostor = isImpostor(alias, fingerprint)
                if impostor { dropped.value = true }
                return impostor
            },
            scoreScale: scale)
        return (making, contacts, dropped)
    }

    /// The contacts of the configured folder, through the contacts index.
    func contacts() -> ContactDirectory {
        _ = loadedSettings()
        guard let configuration else { return ContactDirectory() }
        return ContactDirectory.load(configuration: configuration, directories: environment.directories)
    }

    /// The contacts of the vCard folder whose name or address starts with `typed` (an address
    /// field's completion): the person's own list, so offered even when suggestions are off.
    public func people(matching typed: String, kind: AddressKind, limit: Int) -> [AddressCompletion] {
        contacts().people(matching: typed, kind: kind, limit: limit)
    }

    // MARK: ActivityHistory

    public var recentTypes: [ActivityType] { recentTypes(for: []) }

    public func recentTypes(for kinds: [ItemKind]) -> [ActivityType] {
        guard loadedSettings().sheet.ordersByUse else { return [] }
        let names = historyNames(for: kinds)
        if let snapshot = snapshot(for: names) { return snapshot.snapshot.activityTypes.map { ActivityType($0) } }
        return keptRanking(names: names).ranking.activities.filter { $0.score > 0 }.map { ActivityType($0.activityType) }
    }

    /// Nothing: a share is recorded when it finishes (`HistoryRecording`), with its targets.
    public func record(_ type: ActivityType) {}

    // MARK: Internals

    /// The history's ranking for `kinds`, read once per set of kinds, its scores those of now.
    public func ranking(for kinds: [ItemKind]) -> HistoryRanking {
        let kept = keptRanking(for: kinds)
        return RankingCache.scaled(kept.ranking, by: kept.scale)
    }

    /// A ranking as `RankingCache` gives it: scores to be multiplied by `scale`; `generation`
    /// names the process's reading (nil when none was kept), 0 for no history at all; `stamp`
    /// is what the history's files were when it was read (nil when not kept).
    struct KeptRanking {
        var names: Set<String>
        var ranking = HistoryRanking(targets: [], activities: [])
        var scale = 1.0
        var generation: Int?
        var stamp: HistoryStamp?
    }

    /// The history's names of `kinds`' kinds, worked out once for the sheet (it asks twice).
    private func historyNames(for kinds: [ItemKind]) -> Set<String> {
        if let last = lastKinds, last.kinds == kinds { return last.names }
        let names = Set(kinds.map(HistoryKindNames.name))
        lastKinds = (kinds, names)
        return names
    }

    /// The ranking for `kinds`, read once per set of kinds by this source.
    private func keptRanking(for kinds: [ItemKind]) -> KeptRanking { keptRanking(names: historyNames(for: kinds)) }

    /// The ranking for items of the history's kinds `names`, read once per set by this source.
    func keptRanking(names: Set<String>) -> KeptRanking {
        if let known = rankings[names] { return known }
        var kept = KeptRanking(names: names, generation: 0)
        if loadedSettings().history.enabled {
            do {
                let history = HomeFiles.of(environment).history
                let read = try RankingCache.ranking(of: history, kinds: names) { try history.ranking(for: names) }
                (kept.ranking, kept.scale, kept.generation, kept.stamp) = (read.ranking, read.scale, read.generation, read.stamp)
                read.warnings.forEach(say)
            } catch {
                kept.generation = nil
                say("history: no suggestions from it: \((error as? ShareError)?.message ?? "\(error)")")
            }
        }
        rankings[names] = kept
        return kept
    }

    func loadedSettings() -> (sheet: SheetSettings, history: HistorySettings) {
        if let settings { return settings }
        var loaded = (sheet: SheetSettings.default, history: HistorySettings.default)
        // A file that cannot be read is said by the share itself; the defaults stand here.
        if let configuration = try? environment.loadConfiguration() {
            self.configuration = configuration
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
