import Foundation
import ReadingList

/// Measurement 4: adding 10,000 URLs to the reading list, in adds per second, against the same
/// inserts through the `sqlite3` shell on the same schema as the baseline.
@MainActor
struct ReadingListBenchmark {
    let config: Config
    private let folder = benchFolder.appendingPathComponent("reading-list", isDirectory: true)

    /// URLs added per run.
    private var count: Int { config.quick ? 1_000 : 10_000 }
    /// Runs per way; the table shows the median.
    private var runs: Int { config.quick ? 1 : 3 }

    private static let sqlite3 = ["/usr/bin/sqlite3", "/bin/sqlite3", "/usr/local/bin/sqlite3"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// The upsert `ReadingList` runs, with the values written in, for the shell.
    private static func upsert(url: String, title: String, date: Int) -> String {
        func literal(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
        return """
            INSERT INTO items (url, title, preview_text, date_added, is_read) VALUES (\(literal(url)), \(literal(title)), NULL, \(date), 0) \
            ON CONFLICT (url) DO UPDATE SET id = (SELECT max(id) FROM items) + 1, title = coalesce(excluded.title, title), \
            preview_text = coalesce(excluded.preview_text, preview_text), date_added = excluded.date_added, is_read = 0 \
            RETURNING title, preview_text, date_added, is_read;
            """
    }

    private func pages() -> [ReadingList.NewItem] {
        (0..<count).map {
            ReadingList.NewItem(url: URL(string: "https://example.com/articles/\($0)")!, title: "Article \($0)")
        }
    }

    /// A fresh, migrated, empty list in its own file.
    private func freshList(_ name: String) throws -> ReadingList {
        let url = folder.appendingPathComponent("\(name)-\(UUID().uuidString).sqlite")
        let list = ReadingList(databaseURL: url)
        _ = try list.items()
        return list
    }

    private enum Way {
        case addItem, addItems, shellPerInsert, shellOneTransaction
    }

    /// One run of `way`: the time for all `count` adds, and the rows in the list afterwards.
    private func measure(_ way: Way) throws -> (elapsed: Duration, rows: Int) {
        let list = try freshList("\(way)")
        let items = pages()
        switch way {
        case .addItem:
            let elapsed = try timed { for item in items { try list.addItem(url: item.url, title: item.title) } }.elapsed
            return (elapsed, try list.items().count)
        case .addItems:
            let elapsed = try timed { _ = try list.addItems(items) }.elapsed
            return (elapsed, try list.items().count)
        case .shellPerInsert, .shellOneTransaction:
            list.close()
            guard let shell = Self.sqlite3 else { throw BenchError("sqlite3 is not installed (scripts/bootstrap)") }
            let date = Int(Date().timeIntervalSince1970)
            var script =
                "PRAGMA journal_mode = WAL;\nPRAGMA synchronous = NORMAL;\nPRAGMA busy_timeout = 10000;\n.output /dev/null\n"
            if way == .shellOneTransaction { script += "BEGIN IMMEDIATE;\n" }
            for item in items {
                script += Self.upsert(url: item.url.absoluteString, title: item.title ?? "", date: date) + "\n"
            }
            if way == .shellOneTransaction { script += "COMMIT;\n" }
            let scriptURL = folder.appendingPathComponent("\(way).sql")
            try Data(script.utf8).write(to: scriptURL)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: shell)
            process.arguments = ["-bail", list.databaseURL.path]
            process.standardInput = try FileHandle(forReadingFrom: scriptURL)
            process.standardOutput = FileHandle.nullDevice
            let elapsed = try timed {
                try process.run()
                process.waitUntilExit()
            }.elapsed
            guard process.terminationStatus == 0 else {
                throw BenchError("sqlite3 exited with \(process.terminationStatus)")
            }
            return (elapsed, try ReadingList(databaseURL: list.databaseURL).items().count)
        }
    }

    func run() -> String {
        do {
            return try report()
        } catch {
            return "## 4. Adding to the reading list\n\nNot measured: \(error)"
        }
    }

    private func report() throws -> String {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let ways: [(Way, String, String)] = [
            (.addItem, "`ReadingList.addItem`, one transaction per URL (separate shares)", "\(count)"),
            (.shellPerInsert, "baseline: `sqlite3` shell, the same upserts, each its own transaction", "\(count)"),
            (.addItems, "`ReadingList.addItems`, all in one transaction (one share of \(count) links)", "1"),
            (.shellOneTransaction, "baseline: `sqlite3` shell, the same upserts in one transaction", "1"),
        ]
        var samples: [Way: Samples] = [:]
        var rows: [Way: Int] = [:]
        note("4. reading list: warm-up")
        _ = try measure(.addItems)
        // Interleaved, so a slow moment of the machine falls on every way alike.
        for run in 1...runs {
            for (way, _, _) in ways {
                note("4. reading list: \(count) adds, \(way), run \(run) of \(runs)")
                let result = try measure(way)
                samples[way, default: Samples()].add(result.elapsed)
                rows[way] = result.rows
            }
        }
        func rate(_ way: Way) -> Double { Double(count) / (samples[way]?.median.inSeconds ?? .infinity) }
        var table = Table(
            "way", "transactions", "time: median (min–max)", "adds per second", "÷ its sqlite3 baseline", "rows after")
        for (way, name, transactions) in ways {
            let baseline: Way? =
                switch way {
                case .addItem: .shellPerInsert
                case .addItems: .shellOneTransaction
                default: nil
                }
            let ratio = baseline.map { formatRatio(rate(way) / rate($0)) } ?? "—"
            table.add(
                name, transactions, samples[way]?.summary ?? "—", significant(rate(way).rounded()), ratio,
                String(rows[way] ?? 0))
        }
        return """
            ## 4. Adding \(count) URLs to the reading list

            Each run adds \(count) new `https` URLs with titles to a fresh, empty list (WAL, `synchronous = NORMAL`, \
            schema version \(ReadingList.schemaVersion)). The baselines run the very same upsert statements through the \
            `sqlite3` shell (SQLite \(sqliteVersion())) on a database of the same schema and settings; their time includes \
            starting `sqlite3` and parsing the script. \(runs) interleaved runs per way. "÷ baseline" is adds per second \
            over the baseline's: above 1× is faster than the shell.

            \(table.rendered)
            """
    }

    private func sqliteVersion() -> String {
        guard let shell = Self.sqlite3 else { return "not installed" }
        let process = Process()
        let pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = ["-version"]
        process.standardOutput = pipe
        guard (try? process.run()) != nil else { return "?" }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self).split(separator: " ").first.map(String.init) ?? "?"
    }
}

/// A reading-list measurement that could not be made.
private struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
