import Foundation
import OpenIn
import ShareHistory
import ShareSheet
import ShareSheetSystem

/// The source's side of `SuggestionSnapshot`: a sheet reads the snapshot when it holds and
/// writes it when it had to read the history; a recorded share makes again those it changed.
extension HistorySuggestionSource: HistoryFollowing {
    /// A snapshot as this process read it, and the number that tells it from other readings
    /// (negative, apart from `RankingCache`'s) for `FinishedSuggestions`.
    struct KeptSnapshot {
        var snapshot: SuggestionSnapshot
        var generation: Int
    }

    /// The snapshot for items of the history's kinds `names`, when one holds for the history
    /// and contacts as they are now; looked up once per sheet.
    func snapshot(for names: Set<String>) -> KeptSnapshot? {
        if let known = snapshots[names] { return known }
        var found: KeptSnapshot?
        if loadedSettings().history.enabled {
            let paths = HomeFiles.of(environment)
            found = SnapshotCache.snapshot(
                at: paths.snapshot(for: names), history: HistoryStamp(databasePath: paths.database), contacts: contactsStamp(),
                now: Date())
        }
        snapshots[names] = .some(found)
        return found
    }

    /// The contacts folder's stamp now (one `stat`), nil when none is configured or readable.
    func contactsStamp() -> SuggestionSnapshot.ContactsStamp? {
        _ = loadedSettings()
        guard let configuration else { return nil }
        let paths = HomeFiles.of(environment)
        let folder = paths.contactsFolder(setting: configuration.string("folder", in: "contacts")) {
            ContactDirectory.folder(configuration: configuration, directories: environment.directories)?.path
        }
        return SuggestionSnapshot.contactsStamp(folder: folder, index: paths.contactsIndex)
    }

    /// Writes the snapshot of a ranking this process read whole and kept (its files unchanged
    /// while it was read), with names from `contacts`. Not written while the contacts folder is
    /// unsettled (changed in the last `ContactIndex.unsettled`): a change within the same tick
    /// of the file system's clock would not show in its time.
    func writeSnapshot(of kept: KeptRanking, contacts: LazyContacts) {
        guard let stamp = kept.stamp, loadedSettings().history.enabled else { return }
        let now = Date()
        let contactsStamp = contactsStamp()
        if let contactsStamp,
            now.timeIntervalSince1970 - (Double(contactsStamp.seconds) + Double(contactsStamp.nanoseconds) / 1e9) < ContactIndex.unsettled
        {
            return
        }
        let making = SuggestionMaking(
            offered: [:], contacts: contacts,
            applicationName: { id in DesktopApplicationCatalog().application(withID: id).map { ($0.name, $0.iconName) } },
            scoreScale: kept.scale)
        let made = making.snapshotCandidates(ranking: kept.ranking, limit: SuggestionSnapshot.candidateLimit)
        let snapshot = SuggestionSnapshot(
            history: stamp, contacts: contactsStamp, made: now,
            activityTypes: kept.ranking.activities.filter { $0.score > 0 }.map(\.activityType), candidates: SnapshotCandidates(made.candidates),
            complete: made.complete)
        // A cache: a snapshot that cannot be written is read from the history next time.
        try? snapshot.write(to: URL(fileURLWithPath: HomeFiles.of(environment).snapshot(for: kept.names)))
    }

    // MARK: HistoryFollowing

    public func historyWillRecord() {
        historyBeforeRecording = HistoryStamp(databasePath: HomeFiles.of(environment).database)
    }

    /// Makes again each snapshot the share changed (its kinds, or every one when old shares were
    /// dropped) and restamps the others, which were right before the share and still are. About
    /// one history query per snapshot made again (BENCHMARKS.md, "Suggestions"), after the share.
    public func historyRecorded(_ share: RecordedShare) {
        let folder = SuggestionSnapshot.folder(in: environment.directories)
        guard loadedSettings().history.enabled,
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { return }
        let now = HistoryStamp(databasePath: HomeFiles.of(environment).database)
        let contacts = contactsStamp()
        for name in names.sorted() {
            guard let kinds = SuggestionSnapshot.kinds(fromFileName: name) else { continue }
            let url = folder.appendingPathComponent(name)
            let changed = share.dropped > 0 || (share.counts && (kinds.isEmpty || !kinds.isDisjoint(with: share.kinds)))
            if !changed, let before = historyBeforeRecording,
                var snapshot = SuggestionSnapshot.read(url.path, history: before, contacts: contacts, now: Date())?.snapshot,
                let candidates = snapshot.candidates.all
            {
                snapshot.candidates = SnapshotCandidates(candidates)
                snapshot.history = now
                try? snapshot.write(to: url)
                continue
            }
            // Read afresh: the share changed the files this process may have read before it.
            rankings[kinds] = nil
            let kept = keptRanking(names: kinds)
            if kept.stamp != nil {
                writeSnapshot(of: kept, contacts: LazyContacts { [unowned self] in self.contacts() })
            } else {
                try? FileManager.default.removeItem(at: url)
            }
        }
        historyBeforeRecording = nil
        snapshots = [:]
    }
}

/// The snapshots this process read, kept while their files, the history's and the contacts
/// folder's stay as they were: a second sheet (the service builds many) does not parse again.
enum SnapshotCache {
    private struct Kept {
        var file: FileStamp
        var kept: HistorySuggestionSource.KeptSnapshot
    }

    private static let kept = Locked<(snapshots: [String: Kept], generations: Int)>(([:], 0))

    /// Forgets every kept snapshot.
    static func forget() { kept.withLock { $0.snapshots = [:] } }

    /// The snapshot in `url` when it holds for `history` and `contacts` at `now`.
    static func snapshot(
        at path: String, history: HistoryStamp, contacts: SuggestionSnapshot.ContactsStamp?, now: Date
    ) -> HistorySuggestionSource.KeptSnapshot? {
        // Without a kept one (a process's first sheet), the file is read at once: its stamp
        // comes from the open file, one `stat` fewer.
        if let known = kept.withLock({ $0.snapshots[path] }), let file = FileStamp(path: path), known.file == file {
            return known.kept.snapshot.holds(history: history, contacts: contacts, now: now) ? known.kept : nil
        }
        guard let (snapshot, file) = SuggestionSnapshot.read(path, history: history, contacts: contacts, now: now) else { return nil }
        return kept.withLock { kept in
            kept.generations += 1
            let made = HistorySuggestionSource.KeptSnapshot(snapshot: snapshot, generation: -kept.generations)
            kept.snapshots[path] = Kept(file: file, kept: made)
            return made
        }
    }
}

/// The files of one home that a sheet's suggestions read, worked out once per home: making
/// them from `XDGDirectories` URLs each time cost the first sheet more than reading a snapshot.
struct HomeFiles: Sendable {
    /// The share history.
    var history: ShareHistory
    /// Its database.
    var database: String
    /// The contacts index (`ContactIndex.indexURL`).
    var contactsIndex: String
    /// The snapshots' folder, with a slash at the end.
    var folder: String

    /// The snapshot file for items of the history's kinds `names`.
    func snapshot(for names: Set<String>) -> String { folder + SuggestionSnapshot.fileName(for: names) }

    private static let known = Locked<[String: HomeFiles]>([:])
    private static let contactsFolders = Locked<[String: String?]>([:])

    /// The contacts folder `[contacts] folder=setting` names in this home, worked out once.
    func contactsFolder(setting: String?, _ make: () -> String?) -> String? {
        let key = database + "\u{0}" + (setting ?? "\u{1}")
        if let known = Self.contactsFolders.withLock({ $0[key] }) { return known }
        let folder = make()
        Self.contactsFolders.withLock { $0[key] = .some(folder) }
        return folder
    }

    /// The paths of `environment`'s home.
    static func of(_ environment: HostEnvironment) -> HomeFiles {
        let key = ["HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"].map { environment.variables[$0] ?? "" }.joined(separator: "\u{0}")
        if let paths = known.withLock({ $0[key] }) { return paths }
        let directories = environment.directories
        let history = ShareHistory(directories: directories)
        let paths = HomeFiles(
            history: history, database: history.databaseURL.path, contactsIndex: ContactIndex.indexURL(in: directories).path,
            folder: SuggestionSnapshot.folder(in: directories).path + "/")
        known.withLock { $0[key] = paths }
        return paths
    }
}
