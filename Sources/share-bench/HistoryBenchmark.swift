import Foundation
import ShareHistory

/// What recording a share in the history costs (SPEC §12 asks under 1 ms): `ShareHistory.record`
/// in process, into an empty history and into one holding 90 days of 20 shares a day; and whole
/// `share --activity copy` runs with `[history] enabled=false` against the default, interleaved.
@MainActor
struct HistoryBenchmark {
    let config: Config
    private let folder = benchFolder.appendingPathComponent("history", isDirectory: true)

    private var records: Int { config.quick ? 50 : 500 }
    private var shares: Int { config.quick ? 5 : 30 }
    /// 90 days of 20 shares a day: a full history at the default `keep-days`.
    private static let fullHistory = 1_800

    /// A share as the command records it: Mail to two people, one image and one file.
    private static func entry(at time: Date) -> HistoryEntry {
        HistoryEntry(
            time: time, activityType: "com.apple.UIKit.activity.Mail", activity: "mail",
            targets: [
                HistoryTarget(kind: .recipient, value: "ana@example.com"), HistoryTarget(kind: .recipient, value: "bo@example.com"),
            ],
            items: [HistoryEntry.ItemCount(kind: "image", count: 1), HistoryEntry.ItemCount(kind: "file", count: 1)],
            disposition: "sent")
    }

    func run() -> String {
        do {
            return try report()
        } catch {
            return "## Share history: recording a share\n\nNot measured: \(error)"
        }
    }

    /// `records` records into `history`, each timed; the history keeps growing by one a record.
    private func recordings(into history: ShareHistory) throws -> Samples {
        var samples = Samples()
        for _ in 0..<records {
            let entry = Self.entry(at: Date())
            samples.add(try timed { try history.record(entry, keepDays: 90) }.elapsed)
        }
        return samples
    }

    private func report() throws -> String {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        note("history: \(records) records into an empty history")
        let empty = ShareHistory(databaseURL: folder.appendingPathComponent("empty.sqlite"))
        let fromEmpty = try recordings(into: empty)

        note("history: filling a history with \(Self.fullHistory) shares")
        let full = ShareHistory(databaseURL: folder.appendingPathComponent("full.sqlite"))
        let now = Date()
        for index in 0..<Self.fullHistory {
            try full.record(Self.entry(at: now.addingTimeInterval(-Double(index) * 86_400 * 89 / Double(Self.fullHistory))), keepDays: 90)
        }
        note("history: \(records) records into the full history")
        let intoFull = try recordings(into: full)
        let listing = try timed { try full.entries().entries.count }

        var table = Table("what", "time: median (min–max)")
        table.add("`record`, history empty at first (\(records) records)", fromEmpty.summary)
        table.add("`record`, history of \(Self.fullHistory) shares (\(records) records)", intoFull.summary)
        table.add("`entries()` of \(listing.value) shares (`share history --json`'s read)", listing.elapsed.formatted)
        var text = """
            ## Share history: recording a share

            Each `record` opens the database, checks it is WAL with `synchronous = NORMAL`, drops shares older than 90 \
            days and inserts one share (Mail: two recipients, an image and a file) in one transaction, then closes it \
            leaving the log, which every few shares (\(ShareHistory.longestLog) pages) is copied into the database and \
            emptied, with its syncs: what the command does once per finished share. SPEC §12 asks under 1 ms.

            \(table.rendered)
            """
        text += "\n\n" + (try wholeShares())
        return text
    }

    /// `share --activity copy` of a small file, history on against off, interleaved.
    private func wholeShares() throws -> String {
        let share = Bundle.main.executableURL?.deletingLastPathComponent().appendingPathComponent("share")
        guard let share, FileManager.default.isExecutableFile(atPath: share.path) else {
            return "Whole shares not measured: no `share` next to share-bench."
        }
        let file = folder.appendingPathComponent("notes.txt")
        try Data("quarterly numbers\n".utf8).write(to: file)
        func environment(_ name: String, historyOn: Bool) throws -> [String: String] {
            let home = folder.appendingPathComponent(name, isDirectory: true)
            let config = home.appendingPathComponent("config/sharesheet", isDirectory: true)
            try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
            try Data("[history]\nenabled=\(historyOn)\n".utf8).write(to: config.appendingPathComponent("config"))
            var variables = ProcessInfo.processInfo.environment
            for key in ["DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS"] { variables[key] = nil }
            variables["HOME"] = home.path
            variables["XDG_CONFIG_HOME"] = config.deletingLastPathComponent().path
            variables["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
            return variables
        }
        let on = try environment("on", historyOn: true)
        let off = try environment("off", historyOn: false)
        func run(_ variables: [String: String]) throws -> Duration {
            let process = Process()
            process.executableURL = share
            process.arguments = ["--activity", "copy", file.path]
            process.environment = variables
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            let elapsed = try timed {
                try process.run()
                process.waitUntilExit()
            }.elapsed
            guard process.terminationStatus == 0 else { throw HistoryBenchError("share --activity copy exited \(process.terminationStatus)") }
            return elapsed
        }
        _ = try run(on)
        _ = try run(off)
        var withHistory = Samples(), without = Samples()
        for round in 1...shares {
            note("history: whole shares, round \(round) of \(shares)")
            withHistory.add(try run(on))
            without.add(try run(off))
        }
        var table = Table("`share --activity copy notes.txt`", "time: median (min–max)")
        table.add("`[history] enabled=true` (recorded)", withHistory.summary)
        table.add("`[history] enabled=false`", without.summary)
        table.add("difference of the medians", (withHistory.median - without.median).formatted)
        return """
            Whole processes, \(shares) interleaved runs each, no display (the copy goes to the pasteboard file):

            \(table.rendered)
            """
    }
}

private struct HistoryBenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
