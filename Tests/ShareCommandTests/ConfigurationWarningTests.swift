import Foundation
import LocalTestSupport
import Testing

/// A misspelled key is reported, not silently ignored: in the configuration file and in `--set`.
@Suite("share, misspelled settings")
final class ConfigurationWarningTests {
    let fixture: CommandFolder
    var folder: URL { fixture.url }

    init() throws {
        fixture = try CommandFolder()
    }

    @Test func aMisspelledConfigurationKeyIsNamed() async throws {
        let config = folder.appendingPathComponent("home/config/sharesheet/config")
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("[mail]\nsmtpserver=smtp://127.0.0.1:1\n".utf8).write(to: config)
        let run = try await ShareBinary.run(
            ["--activity", "mail", "--to", "ana@example.com", "notes.txt"], in: folder)
        // Only said: the share goes on (and, with no server, is queued: 75).
        #expect(run.status == 75, "\(run)")
        let lines = run.standardError.split(separator: "\n").map(String.init)
        #expect(lines.first == "share: config: [mail] smtpserver is not a setting (did you mean smtp?)", "\(run)")
        // The key did nothing, so the message went to the outbox, and that is said too.
        #expect(run.standardError.contains("outbox"))
    }

    @Test func anUnknownSetKeyIsNamedWithTheClosestOne() async throws {
        let run = try await ShareBinary.run(
            ["--activity", "mail", "--to", "ana@example.com", "--set", "smtpserver=smtp://127.0.0.1:1", "notes.txt"],
            in: folder)
        // Stopped, not warned about (SettingsMistakesTests has the rest).
        #expect(run.status == 64, "\(run)")
        #expect(
            run.standardError
                == "share: --set smtpserver: Mail has no such setting (did you mean smtp?); nothing was shared\n",
            "\(run)")
    }

    @Test func knownKeysAndFieldsAreNotWarnedAbout() async throws {
        let run = try await ShareBinary.run(
            ["--activity", "mail", "--to", "ana@example.com", "--set", "cc=bo@example.com", "--set", "via=smtp",
             "notes.txt"],
            in: folder)
        #expect(!run.standardError.contains("no such setting"), "\(run)")
        #expect(!run.standardError.contains("config:"), "\(run)")
    }
}
