import Foundation
import LocalTestSupport
import ReadingList
import Testing

/// A folder of its own for one test, with a home and XDG folders inside, removed by `remove()`.
struct TestFolder {
    let url: URL

    init() throws {
        url = try TemporaryFolder.make("reading-list-tests")
    }

    var home: URL { url.appendingPathComponent("home", isDirectory: true) }
    var dataHome: URL { home.appendingPathComponent("data", isDirectory: true) }
    /// Where `share` and `ReadingList.default` keep the list for this folder's environment.
    var defaultDatabase: URL { dataHome.appendingPathComponent("sharesheet/reading-list.sqlite") }
    /// A database file for tests that open a list directly.
    var database: URL { url.appendingPathComponent("list.sqlite") }

    /// The environment every child process gets: a private home and XDG folders, fixed width.
    var environment: [String: String] {
        TemporaryHome.environment(home: home).merging(["TZ": "UTC"]) { $1 }
    }

    func remove() { TemporaryFolder(existing: url).remove() }
}

/// What a child process printed and how it ended.
typealias ProcessRun = Command.Result

/// A child process started by a test, its output collected in files, stopped by its PID.
final class ChildProcess: Sendable {
    private let process: Command.Running

    /// Starts `executable` with `arguments` in `folder`; standard input is a pipe held open
    /// until `closeInput()` (or the end), so a child that waits for a line can be released.
    init(_ executable: URL, _ arguments: [String], in folder: TestFolder, environment: [String: String]? = nil) throws {
        process = try Command.start(
            executable.path, arguments, environment: environment ?? folder.environment, in: folder.url, input: .pipe)
    }

    /// Writes `text` to the child's standard input.
    func send(_ text: String) { process.input?.write(Data(text.utf8)) }

    /// Closes the child's standard input.
    func closeInput() { try? process.input?.close() }

    /// Waits for the child to end (killing it by PID after `timeout`, failing the test), then
    /// reads its output.
    func finish(timeout: Double = 120) async -> ProcessRun { await process.finish(timeout: timeout) }
}

/// Runs a program to its end in `folder` (with its environment unless another is given).
func run(
    _ executable: URL, _ arguments: [String], in folder: TestFolder, input: String? = nil,
    environment: [String: String]? = nil
) async throws -> ProcessRun {
    try await Command.run(
        executable.path, arguments, environment: environment ?? folder.environment, in: folder.url,
        input: input.map { .data(Data($0.utf8)) } ?? .null)
}

/// Executables the tests run: the real `sqlite3` shell and the products built next to the tests.
enum Programs {
    /// `sqlite3`, the SQLite shell from Debian's `sqlite3` package (scripts/bootstrap).
    static let sqlite3: URL? = ["/usr/bin/sqlite3", "/bin/sqlite3", "/usr/local/bin/sqlite3"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }.map(URL.init(fileURLWithPath:))

    static var share: URL? { Share.url }
    static var writer: URL? { Share.product("reading-list-writer") }
}

/// Runs `sql` through the `sqlite3` shell on `database`; fails the test when sqlite3 does.
func sqlite3(_ database: URL, _ sql: String, options: [String] = [], in folder: TestFolder) async throws -> String {
    let shell = try #require(Programs.sqlite3, "the sqlite3 shell is missing: run scripts/bootstrap")
    let result = try await run(shell, options + [database.path, sql], in: folder)
    #expect(result.status == 0, "sqlite3 failed: \(result)")
    return result.standardOutput
}

extension ReadingListItem {
    /// The item as one comparable line, for readable failures.
    var summary: String {
        "\(url.absoluteString) | \(title ?? "-") | \(previewText ?? "-") | \(Int(dateAdded.timeIntervalSince1970)) | \(isRead ? "read" : "unread")"
    }
}
