import Foundation
import LocalTestSupport
import Testing

/// Every JSON listing against a golden file under `__Snapshots__/`: compact on one line by
/// default, indented with `--pretty`. Each output parses with Python's `json`, and Python reads
/// the same value from both forms, so the golden files cannot drift apart.
@Suite("share, JSON listings")
final class JSONListingTests {
    let fixture: CommandFolder
    var folder: URL { fixture.url }

    init() throws {
        fixture = try CommandFolder(["notes.txt": CommandFolder.notes, "chart.png": CommandFolder.pngSignature])
    }

    private func share(_ arguments: [String]) async throws -> ShareBinary.Run {
        try await ShareBinary.run(arguments, in: folder)
    }

    @Test("share --list --json: the items with kind, UTType and MIME type, then the rows")
    func list() async throws {
        // Excluded, the activities whose offer depends on the machine (a printer, a phone, the
        // network) are listed with one reason everywhere.
        let command = [
            "--list", "--exclude", "print,message,airdrop,open-in", "notes.txt", "chart.png", "https://swift.org",
            "--text", "hi",
        ]
        let values = try await expectListing(command, named: "json-list")
        let items = try #require((values as? [String: Any])?["items"] as? [[String: Any]])
        #expect(items.first?["mimeType"] as? String == "text/plain")
        #expect(items.dropFirst().first?["typeIdentifier"] as? String == "public.png")
    }

    @Test("share outbox list --json: one object per queued mail and text message")
    func outbox() async throws {
        let mail = try await share(["--activity", "mail", "--to", "a@example.com", "--subject", "Numbers", "notes.txt"])
        #expect(mail.status == 75, "\(mail)")
        let text = try await share([
            "--activity", "message", "--set", "via=outbox", "--to", "+15551234567", "--text", "see you at 6\nbring the numbers",
        ])
        #expect(text.status == 75, "\(text)")
        let values = try await expectListing(["outbox", "list"], named: "json-outbox-list")
        let listed = try #require(values as? [[String: Any]])
        #expect(listed.count == 2)
        // Queued just now: the time the outbox named the message after, within a minute.
        for entry in listed {
            let created = try #require(entry["created"] as? String, "\(entry)")
            let date = try #require(try? Date(created, strategy: .iso8601), "\(created)")
            #expect(abs(date.timeIntervalSinceNow) < 60, "\(created)")
        }
    }

    @Test("share paste --types --json: each offered type with its MIME type and UTType identifier")
    func pasteTypes() async throws {
        let copied = try await share(["--activity", "copy", "--text", "hi"])
        #expect(copied.status == 0, "\(copied)")
        let values = try await expectListing(["paste", "--types"], named: "json-paste-types")
        let types = try #require(values as? [[String: Any]])
        #expect(types.contains { $0["mimeType"] as? String == "text/plain" && $0["typeIdentifier"] as? String == "public.plain-text" })
    }

    @Test("share targets list --json: every installed target, each key present")
    func targets() async throws {
        let applications = folder.appendingPathComponent("home/data/applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        try Data(
            "[Desktop Entry]\nType=Application\nName=Archive\nIcon=folder\nX-ShareSheet-DBus=org.example.Archive\nX-ShareSheet-Accepts=public.image\n"
                .utf8
        ).write(to: applications.appendingPathComponent("org.example.Archive.desktop"))
        try Data("[Desktop Entry]\nType=Application\nName=Saver\nExec=/bin/true %F\nX-ShareSheet-Accepts=public.item\n".utf8)
            .write(to: applications.appendingPathComponent("org.example.Saver.desktop"))
        let values = try await expectListing(["targets", "list"], named: "json-targets-list")
        #expect((values as? [[String: Any]])?.count == 2)
    }

    @Test("--pretty without --json, or --json where there is no listing, is a usage error")
    func prettyNeedsJSON() async throws {
        for command in [
            ["--list", "--pretty", "notes.txt"], ["--activity", "copy", "--pretty", "notes.txt"],
            ["outbox", "list", "--pretty"], ["paste", "--types", "--pretty"], ["paste", "--json"], ["targets", "list", "--pretty"],
        ] {
            let run = try await share(command)
            #expect(run.status == 64, "\(command): \(run)")
            #expect(run.standardError.contains("--pretty works only with") || run.standardError.contains("--json works only with"), "\(command): \(run)")
        }
    }

    // MARK: Helpers

    /// Runs `command` with `--json`, then with `--json --pretty`; compares each with its golden
    /// file (`NAME.txt`, `NAME-pretty.txt`) once the run's folder, ids and times are replaced by
    /// placeholders. Both must parse with Python, to the same value.
    /// - Returns: the listing, as `JSONSerialization` reads it.
    @discardableResult
    private func expectListing(
        _ command: [String], named name: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Any {
        let compact = try await share(command + ["--json"])
        #expect(compact.status == 0 && compact.standardError.isEmpty, "\(compact)", sourceLocation: sourceLocation)
        let pretty = try await share(command + ["--json", "--pretty"])
        #expect(pretty.status == 0 && pretty.standardError.isEmpty, "\(pretty)", sourceLocation: sourceLocation)

        // Compact is one line; pretty indents one member per line.
        #expect(compact.standardOutput.hasSuffix("\n"), sourceLocation: sourceLocation)
        #expect(compact.standardOutput.dropLast().allSatisfy { $0 != "\n" }, "\(compact)", sourceLocation: sourceLocation)
        #expect(pretty.standardOutput.split(separator: "\n").count > 2, "\(pretty)", sourceLocation: sourceLocation)
        #expect(pretty.standardOutput.contains("\n  "), sourceLocation: sourceLocation)

        let compactValue = try await python(compact.standardOutput, sourceLocation: sourceLocation)
        let prettyValue = try await python(pretty.standardOutput, sourceLocation: sourceLocation)
        #expect(compactValue == prettyValue, "--pretty changed the value", sourceLocation: sourceLocation)

        assertSnapshot(normalized(compact.standardOutput), named: name, sourceLocation: sourceLocation)
        assertSnapshot(normalized(pretty.standardOutput), named: name + "-pretty", sourceLocation: sourceLocation)
        return try JSONSerialization.jsonObject(with: Data(compact.standardOutput.utf8))
    }

    /// Parses `text` with Python's `json` and returns the value as Python writes it back with
    /// sorted keys; a parse error fails the test.
    private func python(_ text: String, sourceLocation: SourceLocation) async throws -> String {
        let python = "/usr/bin/python3"
        try #require(FileManager.default.isExecutableFile(atPath: python), "python3 is needed", sourceLocation: sourceLocation)
        let run = try await ShareBinary.run(
            ["-c", "import json, sys; print(json.dumps(json.load(sys.stdin), sort_keys=True))"], in: folder,
            input: .text(text), program: python)
        #expect(run.status == 0, "Python's json could not parse:\n\(text)\n\(run.standardError)", sourceLocation: sourceLocation)
        return run.standardOutput
    }

    /// `text` with what changes from run to run replaced: the test's folder, the outbox's
    /// message ids (time, process, random part, host) and the times they were queued.
    private func normalized(_ text: String) -> String {
        var text = text.replacingOccurrences(of: folder.path, with: "FOLDER")
        let patterns = [
            (#"("id" ?: ?)"sms-[0-9]+\.M[0-9]+P[0-9]+R[0-9a-f]+""#, #"$1"sms-ID""#),
            (#"("id" ?: ?)"[0-9]+\.M[0-9]+P[0-9]+R[0-9a-f]+\.[^"]*""#, #"$1"MAIL-ID""#),
            (#"("created" ?: ?)"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z""#, #"$1"CREATED""#),
        ]
        for (pattern, replacement) in patterns {
            text = text.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
        }
        return text
    }
}
