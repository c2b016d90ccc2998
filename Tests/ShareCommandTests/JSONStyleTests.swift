import Foundation
import LocalTestSupport
import Testing

/// Everything the command prints with `--json` comes out in one style: keys sorted in every
/// object, compact on one line by default, indented with `--pretty`; and every documented key
/// is there, null when it has no value.
@Suite("share --json, one style")
final class JSONStyleTests {
    let fixture: CommandFolder
    var folder: URL { fixture.url }

    init() throws {
        fixture = try CommandFolder()
    }

    private var home: URL { folder.appendingPathComponent("home") }

    private func share(_ arguments: [String], environment: [String: String] = [:]) async throws -> ShareBinary.Run {
        try await ShareBinary.run(arguments, in: folder, environment: environment)
    }

    /// Fills every store a listing reads: a queued mail, a copy, a reading-list page, a share
    /// target, a contact.
    private func fillStores() async throws {
        for command in [
            ["--activity", "mail", "--to", "a@example.com", "--subject", "Numbers", "notes.txt"],
            ["--activity", "reading-list", "https://swift.org/"],
            ["--activity", "copy", "--text", "hi"],
        ] {
            let run = try await share(command)
            // Mail with no server set up is queued: 75, "retry later".
            #expect(run.status == (command[1] == "mail" ? 75 : 0), "\(command): \(run)")
        }
        let applications = home.appendingPathComponent("data/applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        try Data("[Desktop Entry]\nType=Application\nName=Saver\nExec=/bin/true %F\nX-ShareSheet-Accepts=public.item\n".utf8)
            .write(to: applications.appendingPathComponent("org.example.Saver.desktop"))
        let contacts = home.appendingPathComponent("data/contacts/default")
        try FileManager.default.createDirectory(at: contacts, withIntermediateDirectories: true)
        try Data(
            "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:ana\r\nFN:Ana\r\nEMAIL:ana@example.com\r\nPHOTO;VALUE=uri:https://example.com/ana.jpg\r\nEND:VCARD\r\n"
                .utf8
        ).write(to: contacts.appendingPathComponent("ana.vcf"))
    }

    /// Checks `text` with `json-style.py` (`compact` or `pretty`); returns the value as Python
    /// writes it back, keys sorted.
    private func checkStyle(_ text: String, _ form: String, command: [String]) async throws -> String {
        let run = try await ShareBinary.run(
            [Fixture.path("json-style.py"), form], in: folder, input: .text(text), program: "/usr/bin/python3")
        #expect(run.status == 0, "\(command) \(form): \(run.standardError)")
        return run.standardOutput
    }

    @Test("every command that prints JSON: keys sorted, one compact line, indented with --pretty, the same value")
    func everyJSONCommand() async throws {
        try await fillStores()
        let commands: [(arguments: [String], status: Int32)] = [
            (["--list", "--exclude", "print,message,airdrop,open-in", "notes.txt"], 0),
            (["--activity", "copy", "--text", "hi"], 0),
            (["--activity", "mail", "nope.txt"], 66),
            (["outbox", "list"], 0),
            (["paste", "--types"], 0),
            (["targets", "list"], 0),
            (["accounts", "list"], 0),
            (["reading-list", "list"], 0),
            (["contacts", "list"], 0),
            (["contacts", "show", "ana"], 0),
        ]
        let environment = ["SHARESHEET_TOKEN_WEIBO": "from-env"]
        for (arguments, status) in commands {
            let compact = try await share(arguments + ["--json"], environment: environment)
            #expect(compact.status == status, "\(arguments): \(compact)")
            let pretty = try await share(arguments + ["--json", "--pretty"], environment: environment)
            #expect(pretty.status == status, "\(arguments) --pretty: \(pretty)")
            let compactValue = try await checkStyle(compact.standardOutput, "compact", command: arguments)
            let prettyValue = try await checkStyle(pretty.standardOutput, "pretty", command: arguments)
            #expect(compactValue == prettyValue, "\(arguments): --pretty changed the value")
            #expect(compactValue.count > 3, "\(arguments): an empty listing proves nothing: \(compact)")
        }
    }

    @Test("a failed share's result has every key, error.hint included, and names the activity given with --activity")
    func failedResultHasEveryKey() async throws {
        let run = try await share(["--activity", "mail", "--json", "nope.txt"])
        #expect(run.status == 66, "\(run)")
        let result = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        #expect(
            Set(result.keys)
                == ["activity", "activityType", "completed", "disposition", "error", "fallback", "kept", "location", "returnedItems"])
        #expect(result["activity"] as? String == "mail")
        #expect(result["activityType"] as? String == "com.apple.UIKit.activity.Mail")
        let error = try #require(result["error"] as? [String: Any], "\(run)")
        #expect(Set(error.keys) == ["code", "message", "hint", "field", "setting", "fix", "path"])
        #expect(error["hint"] is NSNull)
        #expect(error["code"] as? String == "no-input")
    }

    @Test("an error that has a hint carries it in error.hint")
    func errorHint() async throws {
        // A misspelled activity: the hint is the closest name. The activity is not known.
        let run = try await share(["--activity", "mial", "--json", "notes.txt"])
        #expect(run.status == 64, "\(run)")
        let result = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        #expect(result["activity"] is NSNull)
        #expect((result["error"] as? [String: Any])?["hint"] as? String == "mail")
    }

    @Test("listings keep every key of a row, null when empty: a page without a title, a photo given as a link")
    func listingsKeepEveryKey() async throws {
        try await fillStores()
        let pages = try await share(["reading-list", "list", "--json"])
        let page = try #require((try JSONSerialization.jsonObject(with: Data(pages.standardOutput.utf8)) as? [[String: Any]])?.first)
        #expect(Set(page.keys) == ["url", "title", "previewText", "dateAdded", "read"], "\(pages)")
        #expect(page["previewText"] is NSNull, "\(pages)")

        let contacts = try await share(["contacts", "list", "--json"])
        let contact = try #require((try JSONSerialization.jsonObject(with: Data(contacts.standardOutput.utf8)) as? [[String: Any]])?.first)
        let photo = try #require(contact["photo"] as? [String: Any], "\(contacts)")
        #expect(Set(photo.keys) == ["link", "unreadable", "format", "width", "height", "bytes"], "\(contacts)")
        #expect(photo["link"] as? String == "https://example.com/ana.jpg")
        #expect(photo["width"] is NSNull)
    }
}
