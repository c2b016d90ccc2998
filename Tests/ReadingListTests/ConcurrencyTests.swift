import Foundation
import ReadingList
import Testing

/// Several programs add to one reading list at the same time: WAL, `BEGIN IMMEDIATE` and the
/// busy timeout must make every add wait its turn instead of failing with "database is locked".
@Suite("Concurrent writers")
struct ConcurrencyTests {
    static let perProcess = 1000

    @Test("two processes adding 1,000 URLs each, one transaction per URL, end with 2,000 rows")
    func twoWriterProcesses() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let writer = try #require(Programs.writer, "reading-list-writer was not built next to the tests")
        // Both start on the same empty path: creating the file, switching it to WAL and
        // migrating the schema race too.
        let children = try ["https://one.example/page/", "https://two.example/page/"].map { prefix in
            try ChildProcess(writer, [folder.database.path, prefix, String(Self.perProcess)], in: folder)
        }
        // Released together once both are up.
        for child in children { child.send("go\n") }
        var runs: [ProcessRun] = []
        for child in children { runs.append(await child.finish()) }
        for run in runs {
            #expect(run.status == 0, "\(run)")
            #expect(!run.standardError.contains("locked"), "\(run)")
        }
        let counts = try await sqlite3(
            folder.database,
            "SELECT count(*), count(DISTINCT url), sum(url LIKE 'https://one.example/%'), sum(url LIKE 'https://two.example/%') FROM items;",
            in: folder)
        #expect(counts == "2000|2000|1000|1000\n")
        #expect(try ReadingList(databaseURL: folder.database).items().count == 2 * Self.perProcess)
    }

    @Test("two share processes adding 1,000 links each at the same time end with 2,000 rows")
    func twoShareProcesses() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let share = try #require(Programs.share, "the share executable was not built next to the tests")
        let children = try ["one", "two"].map { name in
            let urls = (0..<Self.perProcess).map { "https://\(name).example/shared/\($0)" }
            return try ChildProcess(share, ["--activity", "reading-list"] + urls, in: folder)
        }
        var runs: [ProcessRun] = []
        for child in children {
            child.closeInput()
            runs.append(await child.finish())
        }
        for run in runs {
            #expect(run.status == 0, "\(run)")
            #expect(!run.standardError.contains("locked"), "\(run)")
            #expect(run.standardOutput.split(separator: "\n").count == Self.perProcess, "one returned URL per link")
        }
        let counts = try await sqlite3(
            folder.defaultDatabase, "SELECT count(*), count(DISTINCT url) FROM items;", in: folder)
        #expect(counts == "2000|2000\n")
    }

    @Test("threads of one process sharing a ReadingList, and a second ReadingList on the same file")
    func threadsInOneProcess() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let shared = ReadingList(databaseURL: folder.database)
        let other = ReadingList(databaseURL: folder.database)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                let list = worker.isMultiple(of: 2) ? shared : other
                group.addTask {
                    for number in 0..<100 {
                        try list.addItem(url: URL(string: "https://example.com/\(worker)/\(number)")!)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try shared.items().count == 400)
    }
}
