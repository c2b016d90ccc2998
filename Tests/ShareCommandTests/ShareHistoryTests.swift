// The share history (SPEC §12) end to end: real `share` runs record their shares in
// $XDG_DATA_HOME/sharesheet/history.sqlite, `share history` lists, forgets and clears them, and
// the sqlite3 shell checks the file after SIGKILLs.
import Foundation
import LocalTestSupport
import ShareSheet
import Testing
import UniformTypes

@testable import ShareHistory

@Suite("The share history")
struct ShareHistoryTests {
    let folder: CommandFolder

    init() throws {
        folder = try CommandFolder([
            "notes.txt": CommandFolder.notes, "holiday-photo.png": CommandFolder.pngSignature + Data(repeating: 0, count: 64),
        ])
    }

    /// The history file of the runs in `folder`.
    var database: URL { folder.url.appendingPathComponent("home/data/sharesheet/history.sqlite") }

    /// One entry of `share history --json`, as a script reads it.
    struct Listed: Decodable {
        struct Target: Decodable, Equatable {
            var kind: String
            var value: String
            var name: String?
        }
        struct Count: Decodable, Equatable {
            var kind: String
            var count: Int
        }
        var id: Int
        var time: String
        var activity: String
        var activityType: String
        var targets: [Target]
        var items: [Count]
        var itemCount: Int
        var disposition: String
    }

    func share(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws -> ShareBinary.Run {
        try await ShareBinary.run(arguments, in: folder.url, sourceLocation: sourceLocation)
    }

    /// `share history --json`, decoded.
    func listed(sourceLocation: SourceLocation = #_sourceLocation) async throws -> [Listed] {
        let run = try await share(["history", "--json"], sourceLocation: sourceLocation)
        #expect(run.status == 0, "\(run.standardError)", sourceLocation: sourceLocation)
        return try JSONDecoder().decode([Listed].self, from: Data(run.standardOutput.utf8))
    }

    /// Mail with no server set up: the message waits in the outbox, and the share is finished (queued).
    func mail(to recipient: String, subject: String = "Quarterly secrets") async throws {
        let run = try await share(["--activity", "mail", "--to", recipient, "--subject", subject, "notes.txt"])
        #expect(run.status == 75, "queued in the outbox: \(run.standardError)")
    }

    func writeConfiguration(_ text: String) throws {
        let config = folder.url.appendingPathComponent("home/config/sharesheet")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: config.appendingPathComponent("config"))
    }

    /// `PRAGMA integrity_check` of the history through the sqlite3 shell, a reader of our own.
    func integrity() throws -> String {
        try Command.output("sqlite3", [database.path, "PRAGMA integrity_check;"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func count(_ table: String = "shares") throws -> Int {
        Int(try Command.output("sqlite3", [database.path, "SELECT count(*) FROM \(table);"]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    @Test("finished shares are listed newest first, with their targets and item kinds, never names or subjects")
    func sharesAreListed() async throws {
        #expect(try await share(["--activity", "copy", "notes.txt"]).status == 0)
        try await mail(to: "alice@example.org", subject: "Quarterly secrets")
        #expect(try await share(["--activity", "photos", "holiday-photo.png"]).status == 0)

        let entries = try await listed()
        #expect(entries.map(\.activity) == ["photos", "mail", "copy"])
        #expect(entries.map(\.disposition) == ["saved", "queued", "copied"])
        #expect(entries[0].items == [.init(kind: "image", count: 1)])
        #expect(entries[0].activityType == "com.apple.UIKit.activity.SaveToCameraRoll")
        #expect(entries[1].targets == [.init(kind: "recipient", value: "alice@example.org", name: nil)])
        #expect(entries[1].items == [.init(kind: "file", count: 1)] && entries[1].itemCount == 1)
        #expect(entries[2].targets.isEmpty)

        let text = try await share(["history"])
        #expect(text.status == 0)
        let lines = text.standardOutput.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[1].contains("  mail  to alice@example.org  1 file  queued"), "\(text.standardOutput)")

        // Neither the listing nor the file itself holds a file name, a subject or a body.
        let stored = try Command.output("sqlite3", [database.path, ".dump"])
        for said in [text.standardOutput, try await share(["history", "--json"]).standardOutput, stored] {
            for secret in ["notes.txt", "holiday-photo", "Quarterly secrets", "quarterly numbers"] {
                #expect(!said.contains(secret), "\(secret) is kept: \(said)")
            }
        }
    }

    @Test("with no share made, share history says so and makes no file")
    func emptyHistory() async throws {
        let run = try await share(["history"])
        #expect(run.status == 0)
        #expect(run.standardOutput == "No shares recorded.\n")
        #expect(try await listed().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: database.path))
    }

    @Test("[history] enabled=false records nothing and makes no file")
    func turnedOff() async throws {
        try writeConfiguration("[history]\nenabled=false\n")
        #expect(try await share(["--activity", "copy", "notes.txt"]).status == 0)
        try await mail(to: "alice@example.org")
        #expect(!FileManager.default.fileExists(atPath: database.path))
        #expect(!FileManager.default.fileExists(atPath: database.path + "-wal"))
        let run = try await share(["history"])
        #expect(run.standardOutput == "History is off.\n")
        #expect(try await listed().isEmpty)
    }

    @Test("share history clear forgets every share")
    func clear() async throws {
        #expect(try await share(["--activity", "copy", "notes.txt"]).status == 0)
        try await mail(to: "alice@example.org")
        let run = try await share(["history", "clear"])
        #expect(run.status == 0 && run.standardOutput == "forgot 2 shares\n", "\(run)")
        #expect(try await listed().isEmpty)
        #expect(try count("shares") == 0 && count("share_targets") == 0 && count("share_items") == 0)
    }

    @Test("forget --target forgets the shares to that person; forget ID one share")
    func forget() async throws {
        try await mail(to: "alice@example.org")
        try await mail(to: "bob@example.org,Alice@Example.org")
        try await mail(to: "carol@example.org")
        #expect(try await share(["--activity", "copy", "notes.txt"]).status == 0)

        let forgot = try await share(["history", "forget", "--target", "alice@example.org"])
        #expect(forgot.status == 0 && forgot.standardOutput == "forgot 2 shares\n", "\(forgot)")
        var entries = try await listed()
        #expect(entries.map(\.activity) == ["copy", "mail"])
        #expect(entries[1].targets.map(\.value) == ["carol@example.org"])

        #expect(try await share(["history", "forget", String(entries[1].id)]).status == 0)
        entries = try await listed()
        #expect(entries.map(\.activity) == ["copy"])
        #expect(try count("share_targets") == 0, "no target row outlives its share")

        let unknown = try await share(["history", "forget", "999"])
        #expect(unknown.status == 66 && unknown.standardError.contains("no share 999"), "\(unknown)")
        let both = try await share(["history", "forget", "1", "--target", "x"])
        #expect(both.status == 64, "\(both)")
    }

    @Test("the suggestions' snapshot follows each share, and goes with forget and clear: nothing still names who was forgotten")
    func snapshotsGoWithTheHistory() async throws {
        let snapshot = folder.url.appendingPathComponent("home/cache/sharesheet/suggestions/file")
        try await mail(to: "alice@example.org")
        // The sheet reads the history and leaves its snapshot for the next process.
        #expect(try await share(["--list", "--json", "notes.txt"]).status == 0)
        #expect(try String(contentsOf: snapshot, encoding: .utf8).contains("alice@example.org"))
        // The next share of a file makes it again, with Bob.
        try await mail(to: "bob@example.org")
        let made = try String(contentsOf: snapshot, encoding: .utf8)
        #expect(made.contains("bob@example.org") && made.contains("alice@example.org"), "\(made)")
        let listed = try await share(["--list", "--json", "notes.txt"])
        #expect(listed.standardOutput.contains("bob@example.org"), "\(listed)")

        #expect(try await share(["history", "forget", "--target", "alice@example.org"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: snapshot.deletingLastPathComponent().path))
        let after = try await share(["--list", "--json", "notes.txt"])
        #expect(!after.standardOutput.contains("alice@example.org") && after.standardOutput.contains("bob@example.org"), "\(after)")
        #expect(try !String(contentsOf: snapshot, encoding: .utf8).contains("alice@example.org"))

        #expect(try await share(["history", "clear"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: snapshot.deletingLastPathComponent().path))
    }

    @Test("entries older than [history] keep-days are dropped at the next share")
    func keepDays() async throws {
        try writeConfiguration("[history]\nkeep-days=30\n")
        try await mail(to: "old@example.org")
        // Made 40 and 20 days ago, as a share then would have recorded them.
        let now = Int(Date().timeIntervalSince1970 * 1000)
        try Command.output(
            "sqlite3",
            [
                database.path,
                "UPDATE shares SET time = \(now - 40 * 86_400_000);"
                    + "INSERT INTO shares (time, activity_type, activity, item_count, disposition) "
                    + "VALUES (\(now - 20 * 86_400_000), 'com.apple.UIKit.activity.CopyToPasteboard', 'copy', 1, 'copied');",
            ])
        try await mail(to: "new@example.org")
        let entries = try await listed()
        #expect(entries.map(\.activity) == ["mail", "copy"])
        #expect(entries[0].targets.map(\.value) == ["new@example.org"])
        #expect(try count("share_targets") == 1, "the dropped share's targets went with it")
    }

    @Test("a [history] value that is not a number stops the share before it goes, naming the key")
    func badKeepDays() async throws {
        try writeConfiguration("[history]\nkeep-days=ninety\n")
        let run = try await share(["--activity", "photos", "holiday-photo.png"])
        #expect(run.status == 78, "\(run)")
        let lines = run.standardError.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("[history] keep-days=ninety"), "\(run.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("home/Pictures/holiday-photo.png").path))
        let history = try await share(["history"])
        #expect(history.status == 78 && history.standardError.contains("keep-days"), "\(history)")
    }

    @Test("a history file that is not a database is set aside with one warning, and the share still works")
    func corruptFileIsSetAside() async throws {
        try FileManager.default.createDirectory(at: database.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("this is not a database, it is a shopping list\n".utf8).write(to: database)
        let run = try await share(["--activity", "photos", "holiday-photo.png"])
        #expect(run.status == 0, "\(run)")
        let warnings = run.standardError.split(separator: "\n").filter { $0.contains("history") }
        #expect(warnings.count == 1 && warnings[0].contains("set it aside as history.sqlite.corrupt-"), "\(run.standardError)")
        let aside = try FileManager.default.contentsOfDirectory(atPath: database.deletingLastPathComponent().path)
            .filter { $0.hasPrefix("history.sqlite.corrupt-") }
        #expect(aside.count == 1)
        #expect(try await listed().map(\.activity) == ["photos"])
        #expect(try integrity() == "ok")
    }

    @Test("a history whose pages are damaged is set aside too")
    func damagedPagesAreSetAside() async throws {
        for recipient in ["a@example.org", "b@example.org", "c@example.org"] { try await mail(to: recipient) }
        // Every share into the file itself (the log is left for later), then keep the header (a
        // SQLite file still) and scribble over the tables' pages.
        try Command.output("sqlite3", [database.path, "PRAGMA wal_checkpoint(TRUNCATE);"])
        var bytes = try Data(contentsOf: database)
        #expect(bytes.count >= 4096 * 3)
        for index in 4096..<bytes.count { bytes[index] = UInt8(truncatingIfNeeded: index &* 31) }
        try bytes.write(to: database)
        let run = try await share(["--activity", "copy", "notes.txt"])
        #expect(run.status == 0, "\(run)")
        #expect(run.standardError.split(separator: "\n").filter { $0.contains("set it aside") }.count == 1, "\(run.standardError)")
        #expect(try await listed().map(\.activity) == ["copy"])
        #expect(try integrity() == "ok")
    }

    @Test("a share killed inside the history's transaction leaves the file whole and without it")
    func killedWhileRecording() async throws {
        try await mail(to: "before@example.org")
        let binary = try #require(Share.url)
        for _ in 0..<3 {
            var environment = ShareBinary.environment(in: folder.url)
            environment["SHARESHEET_TEST_HISTORY_PAUSE_MS"] = "3000"
            let running = try Command.start(
                binary.path, ["--activity", "mail", "--to", "killed@example.org", "notes.txt"], environment: environment,
                in: folder.url)
            defer { running.remove() }
            // Killed once the transaction is open: the write-ahead log has the insert, not yet its commit.
            let deadline = Date().addingTimeInterval(60)
            while running.isRunning, !hasOpen(running.pid, "history.sqlite"), Date() < deadline { usleep(1_000) }
            #expect(running.isRunning, "share ended before it recorded")
            try await Task.sleep(for: .milliseconds(300))
            running.kill(SIGKILL)
            running.waitUntilExit()
            #expect(try integrity() == "ok")
            let entries = try await listed()
            #expect(entries.flatMap(\.targets).map(\.value) == ["before@example.org"], "\(entries.map(\.targets))")
        }
    }

    @Test("shares killed at random moments never leave the history failing its integrity check")
    func killedAtRandomMoments() async throws {
        let binary = try #require(Share.url)
        // How long a whole share takes here, so the kills fall across all of it.
        let started = Date()
        try await mail(to: "first@example.org")
        let whole = Date().timeIntervalSince(started)
        var generator = SystemRandomNumberGenerator()
        var killed = 0
        for round in 0..<12 {
            let running = try Command.start(
                binary.path, ["--activity", "mail", "--to", "r\(round)@example.org", "notes.txt"],
                environment: ShareBinary.environment(in: folder.url), in: folder.url)
            defer { running.remove() }
            let delay = Double.random(in: 0.3...1.1, using: &generator) * whole
            try await Task.sleep(for: .seconds(delay))
            if running.isRunning { killed += 1 }
            running.kill(SIGKILL)
            running.waitUntilExit()
            #expect(try integrity() == "ok", "after a kill at \(delay) s")
        }
        let entries = try await listed()
        #expect(entries.count >= 1 && entries.count <= 13)
        #expect(try count("share_items") == entries.count, "every share whole: its item counts with it")
        #expect(killed > 0, "no run was killed before it ended")
    }

    /// True when process `pid` has a file whose name ends with `name` open.
    func hasOpen(_ pid: pid_t, _ name: String) -> Bool {
        guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd") else { return false }
        return descriptors.contains { descriptor in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(descriptor)"))?.hasSuffix(name) == true
        }
    }
}

@Suite("History entries from what a share was given")
struct HistoryRecordingTests {
    @Test("targets come from the activity's values, never a subject or body")
    @MainActor
    func targets() {
        let mail = HistoryRecording.targets(
            of: .mail, values: ["to": .text("a@example.org, b@example.org"), "cc": .list(["c@example.org"]), "subject": .text("s"), "body": .text("b")])
        #expect(mail.map(\.value) == ["a@example.org", "b@example.org", "c@example.org"])
        #expect(mail.allSatisfy { $0.kind == .recipient })
        let airDrop = HistoryRecording.targets(of: .airDrop, values: ["to": .text("Desk Laptop"), "fingerprint": .text("AB12")])
        #expect(airDrop == [HistoryTarget(kind: .device, value: "AB12", name: "Desk Laptop")])
        #expect(HistoryRecording.targets(of: .print, values: ["printer": .text("Office")]) == [HistoryTarget(kind: .printer, value: "Office")])
        #expect(
            HistoryRecording.targets(of: .openIn, values: ["app": .text("org.gnome.eog.desktop")])
                == [HistoryTarget(kind: .application, value: "org.gnome.eog.desktop")])
        #expect(
            HistoryRecording.targets(of: .init("org.sharesheet.target.org.example.Notes"), values: [:])
                == [HistoryTarget(kind: .shareTarget, value: "org.example.Notes")])
        #expect(HistoryRecording.targets(of: .copyToPasteboard, values: ["to": .text("x@example.org")]).isEmpty)
    }

    @Test("AirDrop: the device the activity reached names the target, by fingerprint with its alias, whatever it was given")
    @MainActor
    func reportedDevice() {
        let ana = ShareRecipient(id: "AB12", name: "Ana's Pixel")
        let named = [HistoryTarget(kind: .device, value: "AB12", name: "Ana's Pixel")]
        // Picked in the sheet: `to` is the fingerprint; given by alias: `to` is the alias.
        #expect(HistoryRecording.targets(of: .airDrop, values: ["to": .text("AB12")], recipients: [ana]) == named)
        #expect(HistoryRecording.targets(of: .airDrop, values: ["to": .text("Ana's Pixel")], recipients: [ana]) == named)
        #expect(
            HistoryRecording.targets(of: .airDrop, values: ["to": .text("ab12")], recipients: [ShareRecipient(id: "AB12", name: "AB12")])
                == [HistoryTarget(kind: .device, value: "AB12")])
        // Without a report (the activity never found the device): what it was given, and a
        // fingerprint is not its own name.
        #expect(
            HistoryRecording.targets(of: .airDrop, values: ["to": .text("AB12"), "fingerprint": .text("AB12")])
                == [HistoryTarget(kind: .device, value: "AB12")])
        #expect(HistoryRecording.targets(of: .airDrop, values: ["to": .text("Ana's Pixel")]) == [HistoryTarget(kind: .device, value: "Ana's Pixel")])
        // Only AirDrop's devices are replaced: a mail's recipients stay what it was given.
        #expect(
            HistoryRecording.targets(of: .mail, values: ["to": .text("a@example.org")], recipients: [ana])
                == [HistoryTarget(kind: .recipient, value: "a@example.org")])
    }

    @Test("item kinds are image, movie, text, link or file, counted")
    @MainActor
    func kinds() {
        let counts = HistoryRecording.itemCounts([
            .string, .webURL, .fileURL(.png), .fileURL(.mpeg4Movie), .fileURL(.pdf), .fileURL(.png), .schemeURL("mailto"),
        ])
        #expect(
            counts == [
                .init(kind: "text", count: 1), .init(kind: "link", count: 2), .init(kind: "image", count: 2),
                .init(kind: "movie", count: 1), .init(kind: "file", count: 1),
            ])
    }
}
