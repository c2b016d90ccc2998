import Contacts
import Foundation
import ShareHistory
import ShareSheet
import ShareSheetBuiltins
import ShareSuggestions

/// Suggestions (#26): a sheet built with a `HistorySuggestionSource` over 10,000 history entries
/// and 2,000 contacts, against the same build in a home with no history file and no contacts.
/// The issue allows 1.3× (medians), and asks that suggestions be ready before the window maps.
///
/// Measured twice over: **warm**, as the service and any second sheet of a process build it
/// (what a process keeps between sheets stays), and **cold**, as `share` builds its one sheet:
/// the process's caches emptied before each build, so the history is queried and the contacts
/// index read from disk every time.
@MainActor
struct SuggestionsBenchmark {
    let config: Config
    private let folder = benchFolder.appendingPathComponent("suggestions", isDirectory: true)

    private var runs: Int { config.quick ? 20 : 150 }
    private var coldRuns: Int { config.quick ? 10 : 60 }
    private var warmUp: Int { config.quick ? 3 : 10 }

    /// A home with its registry, set up as `share` sets up its own.
    private struct Setup {
        var registry: ActivityRegistry
        var environment: HostEnvironment
    }

    private struct Built {
        var elapsed: Duration
        var suggestions: [ActivitySuggestion]
        var offered: Int
    }

    private func setup(name: String, filled: Bool, now: Date) throws -> Setup {
        let home = folder.appendingPathComponent("home-" + name, isDirectory: true)
        let dataDirs = folder.appendingPathComponent("empty-data-dirs", isDirectory: true)
        for made in [home, dataDirs] { try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true) }
        let environment = HostEnvironment(variables: [
            "HOME": home.path, "PATH": "/usr/bin:/bin", "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            "XDG_DATA_DIRS": dataDirs.path, "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
            "XDG_STATE_HOME": home.appendingPathComponent("state").path,
        ])
        if filled {
            note("suggestions: recording \(SuggestionsFixture.historyEntries) shares (about a minute)")
            let history = ShareHistory(directories: environment.directories)
            try SuggestionsFixture.record(SuggestionsFixture.entries(now: now), into: history, now: now)
            note("suggestions: writing \(SuggestionsFixture.contactCount) vCards")
            try SuggestionsFixture.writeContacts(
                into: environment.directories.dataHome.appendingPathComponent("contacts/default", isDirectory: true))
        }
        let registry = ActivityRegistry(environment: environment)
        Builtins.install(into: registry)
        return Setup(registry: registry, environment: environment)
    }

    /// How a build starts: what the process and the disk hold.
    private enum Start: Equatable {
        /// What the process keeps between sheets stays.
        case warm
        /// The process's caches emptied; the snapshot the last share left is on disk.
        case cold
        /// The process's caches emptied and the snapshots removed: the history is queried and
        /// the contacts index read, as after another program changed the history.
        case coldWithoutSnapshot

        var label: String {
            switch self {
            case .warm: return "warm"
            case .cold: return "cold, snapshot ready"
            case .coldWithoutSnapshot: return "cold, no snapshot"
            }
        }
    }

    /// The build the issue times: a controller with a fresh source as its suggestion source and
    /// history, its sheet and suggestions read. A cold start empties the process's caches first
    /// (untimed), and removes the snapshots when asked.
    private func build(_ items: [Any], with setup: Setup, start kind: Start) -> Built {
        if kind != .warm { HistorySuggestionSource.emptyProcessCaches() }
        if kind == .coldWithoutSnapshot { SuggestionSnapshot.removeAll(in: setup.environment.directories) }
        let start = benchClock.now
        let controller = ActivityViewController(activityItems: items, applicationActivities: nil, registry: setup.registry)
        let source = HistorySuggestionSource(environment: setup.environment)
        controller.suggestionSource = source
        controller.history = source
        let offered = controller.sheet.activities.count
        let suggestions = controller.suggestions
        return Built(elapsed: start.duration(to: benchClock.now), suggestions: suggestions, offered: offered)
    }

    /// The suggestions alone: a fresh source asked for a built sheet's kinds and activities.
    private func suggestionsAlone(_ items: [Any], with setup: Setup, start kind: Start) -> Duration {
        let controller = ActivityViewController(activityItems: items, applicationActivities: nil, registry: setup.registry)
        let sheet = controller.sheet
        if kind != .warm { HistorySuggestionSource.emptyProcessCaches() }
        if kind == .coldWithoutSnapshot { SuggestionSnapshot.removeAll(in: setup.environment.directories) }
        let start = benchClock.now
        let source = HistorySuggestionSource(environment: setup.environment)
        _ = source.suggestions(for: sheet.itemKinds, offered: sheet.activities)
        _ = source.recentTypes(for: sheet.itemKinds)
        return start.duration(to: benchClock.now)
    }

    /// `count` builds of each setup, interleaved with the order flipped every run.
    private func interleaved(
        _ count: Int, _ items: [Any], none: Setup, filled: Setup, start: Start
    ) -> (none: Samples, filled: Samples, last: Built?) {
        var noneSamples = Samples(), filledSamples = Samples()
        var last: Built?
        for run in 0..<count {
            let noneFirst = run.isMultiple(of: 2)
            if !noneFirst { last = build(items, with: filled, start: start) }
            noneSamples.add(build(items, with: none, start: start).elapsed)
            if noneFirst { last = build(items, with: filled, start: start) }
            filledSamples.add(last!.elapsed)
        }
        return (noneSamples, filledSamples, last)
    }

    func run() throws -> String {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let now = Date()
        let none = try setup(name: "none", filled: false, now: now)
        let filled = try setup(name: "filled", filled: true, now: now)
        let files = folder.appendingPathComponent("files", isDirectory: true)
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        let text = files.appendingPathComponent("notes.txt")
        try Data("quarterly numbers\n".utf8).write(to: text)
        let image = files.appendingPathComponent("photo.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]).write(to: image)
        let workloads: [(name: String, items: [Any])] = [("text file (`notes.txt`)", [text]), ("image (`photo.png`)", [image])]

        // The very first sheet of the filled home reads all 2,000 cards (and writes the index).
        HistorySuggestionSource.emptyProcessCaches()
        let first = build([image], with: filled, start: .warm)
        let firstNone = build([image], with: none, start: .warm)

        var table = Table(
            "sheet", "no history, no contacts: median (min–max)", "10,000 entries + 2,000 contacts: median (min–max)",
            "ratio (medians)", "suggestions shown")
        var alone = Table("suggestions alone (fresh source)", "no history, no contacts", "10,000 entries + 2,000 contacts")
        for (name, items) in workloads {
            for start in [Start.warm, .cold, .coldWithoutSnapshot] {
                let cold = start != .warm
                let label = "\(name), \(start.label)"
                note("suggestions: \(label): \(warmUp) warm-up and \(cold ? coldRuns : runs) measured runs per setup, interleaved")
                _ = interleaved(warmUp, items, none: none, filled: filled, start: start)
                let measured = interleaved(cold ? coldRuns : runs, items, none: none, filled: filled, start: start)
                let shown = measured.last?.suggestions.map(\.title).prefix(3).joined(separator: ", ") ?? ""
                table.add(
                    label, measured.none.summary, measured.filled.summary,
                    "**" + formatRatio(measured.filled.median.ratio(to: measured.none.median)) + "**",
                    "\(measured.last?.suggestions.count ?? 0) (\(shown)…)")
                var noneAlone = Samples(), filledAlone = Samples()
                for _ in 0..<(cold ? coldRuns : runs) / 2 {
                    noneAlone.add(suggestionsAlone(items, with: none, start: start))
                    filledAlone.add(suggestionsAlone(items, with: filled, start: start))
                }
                alone.add(label, noneAlone.summary, filledAlone.summary)
            }
        }
        // What keeps the snapshots ready: after each share, the recording process makes again
        // the snapshots of the share's kinds (here the image one) and restamps the others.
        _ = build([text], with: filled, start: .cold)
        _ = build([image], with: filled, start: .cold)
        var recordOnly = Samples(), refresh = Samples()
        let history = ShareHistory(directories: filled.environment.directories)
        for run in 0..<(config.quick ? 6 : 30) {
            let entry = HistoryEntry(
                time: Date(), activityType: ActivityType.mail.rawValue, activity: "mail",
                targets: [HistoryTarget(kind: .recipient, value: "bench\(run % 3)@example.com")],
                items: [HistoryEntry.ItemCount(kind: "image", count: 1)], disposition: "sent")
            let source = HistorySuggestionSource(environment: filled.environment)
            source.historyWillRecord()
            var dropped = 0
            recordOnly.add(try timed { dropped = try history.recordCountingDropped(entry, keepDays: 90).dropped }.elapsed)
            refresh.add(
                timed { source.historyRecorded(RecordedShare(kinds: ["image"], counts: true, dropped: dropped)) }.elapsed)
        }
        let afterShare = build([image], with: filled, start: .cold)
        let photos = first.suggestions.filter { $0.photoPath != nil }.count
        // What every sheet did before the index: read all the cards.
        let cards = filled.environment.directories.dataHome.appendingPathComponent("contacts/default", isDirectory: true)
        var everyCard = Samples()
        for _ in 0..<(config.quick ? 2 : 5) { everyCard.add(timed { _ = try? ContactBook(folder: cards).load() }.elapsed) }
        return """
            ## Suggestions: a sheet with 10,000 history entries and 2,000 contacts against none

            Two homes set up as `share` sets up its own (`Builtins.install(into:)`), differing only in their data: \
            none, or \(SuggestionsFixture.historyEntries) history entries recorded over \(Int(SuggestionsFixture.days)) \
            days (Mail to \(SuggestionsFixture.recipients) people, Message to \(SuggestionsFixture.numbers) numbers, \
            AirDrop to \(SuggestionsFixture.devices) devices, Open In \(SuggestionsFixture.applications) applications, \
            Print to \(SuggestionsFixture.printers) printers, Copy and Save to Photos; images, text, files, links, \
            movies; a few people get most shares) and \(SuggestionsFixture.contactCount) vCards, one in \
            \(SuggestionsFixture.photoEvery) with a 6 KB photo. A build: controller made with a fresh \
            `HistorySuggestionSource` as `suggestionSource` and `history`, `sheet` and `suggestions` read. \
            **Warm**: what the process keeps between sheets stays (the service, a second sheet); **cold**: the \
            process's caches are emptied before each build (untimed), as for `share`'s one sheet. Interleaved, order \
            flipped every run, after \(warmUp) warm-up runs; \(runs) warm and \(coldRuns) cold runs per setup; medians \
            (min–max). #26 allows 1.3×.

            \(table.rendered)

            \(alone.rendered)

            The first sheet of the process in the filled home (contacts index made from every card): \
            \(first.elapsed.formatted), \(first.suggestions.count) suggestions, \(photos) with a photo; in the empty \
            home \(firstNone.elapsed.formatted). Reading all \(SuggestionsFixture.contactCount) cards with \
            `ContactBook.load()`, as every sheet did before the index: \(everyCard.summary).

            Keeping the snapshots ready (with the `file` and `image` snapshots on disk, \(recordOnly.count) shares of an image by Mail): recording the share \(recordOnly.summary); then, in the same process after the share, making the image snapshot again and restamping the other \(refresh.summary). The next cold image sheet after them: \(afterShare.elapsed.formatted), \(afterShare.suggestions.count) suggestions.
            """
    }
}
