import Foundation
import LocalTestSupport
import ShareSheet
import ShareSheetTerminal
import ShareSheetTesting
import Testing

@testable import ShareCommand

/// Settings that stop a mistake (#23): a mistyped `--set` key ends the share before anything is
/// sent; a configuration file GLib cannot read ends it with 78, once, naming the file and line;
/// a value of the wrong kind is named as it was given, with the option that gives it.
@Suite("share, settings that stop a mistake")
final class SettingsMistakesTests {
    let folder: URL

    deinit { TemporaryFolder(existing: folder).remove() }

    init() throws {
        folder = try TemporaryFolder.make("share-settings")
        try Data("quarterly numbers\n".utf8).write(to: folder.appendingPathComponent("notes.txt"))
    }

    /// The outbox's queued messages (Maildir `new/`).
    private var queued: [String] {
        let new = folder.appendingPathComponent("home/data/sharesheet/Outbox/new")
        return (try? FileManager.default.contentsOfDirectory(atPath: new.path)) ?? []
    }

    /// Writes the configuration file of the runs' private XDG_CONFIG_HOME.
    private func configure(_ text: String) throws -> URL {
        let config = folder.appendingPathComponent("home/config/sharesheet/config")
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: config)
        return config
    }

    @Test func aMistypedSetKeyStopsTheShareBeforeAnythingIsQueued() async throws {
        let run = try await ShareBinary.run(
            ["--activity", "mail", "--to", "ana@example.com", "--set", "smtpp=smtp://127.0.0.1:1", "notes.txt"], in: folder)
        #expect(run.status == 64, "\(run)")
        #expect(
            run.standardError == "share: --set smtpp: Mail has no such setting (did you mean smtp?); nothing was shared\n",
            "\(run)")
        #expect(run.standardOutput.isEmpty, "\(run)")
        // Before: a warning, then the message went to the outbox anyway.
        #expect(queued.isEmpty, "\(queued)")
    }

    @Test func underJSONTheResultSaysTheUsageError() async throws {
        let run = try await ShareBinary.run(
            ["--json", "--activity", "copy", "--set", "printer=Office", "--text", "hello"], in: folder)
        #expect(run.status == 64, "\(run)")
        let result = try #require(
            try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any], "\(run)")
        let error = try #require(result["error"] as? [String: Any], "\(run)")
        #expect(error["code"] as? String == "usage")
        #expect((error["message"] as? String)?.hasPrefix("--set printer: Copy has no such setting") == true, "\(run)")
    }

    @Test func aFieldTheInterfaceDoesNotShowThisTimeIsStillKnown() async throws {
        // No CUPS scheduler (port 1): Print saves a PDF and shows no interface, yet copies is Print's.
        let run = try await ShareBinary.run(
            ["--activity", "print", "--set", "copies=2", "notes.txt"], in: folder,
            environment: ["CUPS_SERVER": "127.0.0.1:1"])
        #expect(!run.standardError.contains("no such setting"), "\(run)")
        #expect(run.status == 0, "\(run)")
    }

    @Test func aMisspelledKeyInTheConfigurationFileIsOnlySaid() async throws {
        _ = try configure("[mail]\nsmtpp=smtp://127.0.0.1:1\n")
        let run = try await ShareBinary.run(["--activity", "mail", "--to", "ana@example.com", "notes.txt"], in: folder)
        #expect(run.standardError.hasPrefix("share: config: [mail] smtpp is not a setting (did you mean smtp?)\n"), "\(run)")
        #expect(run.status == 75, "queued, as without the key: \(run)")
        #expect(queued.count == 1)
    }

    @Test func aBrokenConfigurationLineIs78OnceWithItsLine() async throws {
        let config = try configure("# mine\n[mail]\nfrom=ana@example.com\nthis is not a setting\n")
        let run = try await ShareBinary.run(["--activity", "mail", "--to", "ana@example.com", "notes.txt"], in: folder)
        #expect(run.status == 78, "\(run)")
        let lines = run.standardError.split(separator: "\n")
        #expect(lines.count == 1, "said once: \(run)")
        #expect(lines.first?.hasPrefix("share: \(config.path):4: ") == true, "\(run)")
        #expect(run.standardError.contains("this is not a setting"), "GLib's reason quotes the line: \(run)")
        #expect(queued.isEmpty)
    }

    @Test func aKeyBeforeAnyGroupIsNamedByItsLine() async throws {
        let config = try configure("\n\nsmtp=smtp://127.0.0.1:1\n[mail]\n")
        let run = try await ShareBinary.run(["--activity", "copy", "--text", "hello"], in: folder)
        #expect(run.status == 78, "\(run)")
        #expect(run.standardError.hasPrefix("share: \(config.path):3: "), "\(run)")
    }

    @Test func aValueThatMakesNoSenseInTheFileIs78WithItsLine() async throws {
        let config = try configure("[mail]\nfrom=ana@example.com\nstarttls=maybe\n")
        let run = try await ShareBinary.run(["--activity", "mail", "--to", "ana@example.com", "notes.txt"], in: folder)
        #expect(run.status == 78, "\(run)")
        #expect(run.standardError == "share: \(config.path):3: [mail] starttls=maybe: use required, optional or off\n", "\(run)")
        #expect(queued.isEmpty)
        // The same value given for one share is a usage error.
        let given = try await ShareBinary.run(
            ["--activity", "mail", "--to", "ana@example.com", "--set", "starttls=perhaps", "notes.txt"], in: folder)
        #expect(given.status == 64, "\(given)")
        #expect(given.standardError == "share: Mail: starttls=perhaps: use required, optional or off\n", "\(given)")
    }

    @Test func aWordForCopiesNamesTheValueAndWhatCopiesTakes() async throws {
        // No CUPS scheduler: Print's questions are still there, and nobody can answer them here.
        let run = try await ShareBinary.run(
            ["--activity", "print", "--set", "copies=abc", "notes.txt"], in: folder, environment: ["CUPS_SERVER": "127.0.0.1:1"])
        #expect(run.status == 64, "\(run)")
        #expect(run.standardError == "share: Print: --set copies=abc: Copies takes a whole number from 1 to 999\n", "\(run)")
    }

    @Test func aMissingRecipientNamesTheRealOption() async throws {
        let run = try await ShareBinary.run(["--activity", "mail", "notes.txt"], in: folder)
        #expect(run.status == 64, "\(run)")
        #expect(run.standardError == "share: Mail: To is required (set it with --to …)\n", "\(run)")
    }
}

/// The sheet in tmux: the same mistyped key stops the share picked there, before Mail asks anything.
@Suite("share, a mistyped --set key in the sheet", .serialized)
final class SheetSettingsMistakesTests {
    let folder: URL
    let terminal = TmuxTerminal()

    deinit {
        terminal.stop()
        TemporaryFolder(existing: folder).remove()
    }

    init() throws {
        folder = try TemporaryFolder.make("share-settings-sheet")
        try Data("quarterly numbers\n".utf8).write(to: folder.appendingPathComponent("notes.txt"))
    }

    @Test func theSheetStopsTooBeforeTheInterface() async throws {
        var environment = ShareBinary.environment(in: folder)
        environment["TERM"] = "xterm"
        try terminal.start(
            TmuxTerminal.shareCommand("--to ana@example.com --set subjct=x notes.txt", in: folder, environment: environment))
        guard try await terminal.waitFor("Mail") else { return }
        try terminal.type("mail")
        guard try await terminal.waitFor("EXIT=") else { return }
        let shown = try terminal.screen()
        #expect(shown.contains("EXIT=64"), "\(shown)")
        #expect(shown.contains("share: --set subjct: Mail has no such setting (did you mean subject?)"), "\(shown)")
        #expect(!shown.contains("More fields"), "nothing was asked:\n\(shown)")
        let outbox = folder.appendingPathComponent("home/data/sharesheet/Outbox/new")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: outbox.path)) ?? []).isEmpty)
    }
}

/// A value of the wrong kind, given ahead, is named as it was given, with what the field takes;
/// in-process, with a stand-in Mail whose interface has a number field.
@MainActor
@Suite("share, a value of the wrong kind")
final class WrongKindOfValueTests {
    let registry = ActivityRegistry()
    let output = TextBuffer()
    let errors = TextBuffer()
    let folder: URL

    init() throws {
        InMemoryBackends().install(into: registry)
        folder = try TemporaryFolder.make("share-wrong-kind")
        try Data("quarterly numbers\n".utf8).write(to: folder.appendingPathComponent("notes.txt"))
    }

    deinit { TemporaryFolder(existing: folder).remove() }

    private func run(_ arguments: [String]) async -> Int32 {
        let record = ComposingMail.Record()
        let descriptor = registry.descriptor(for: .mail)!
        registry.install(.mail) { ComposingMail(descriptor: descriptor, record: record) }
        let context = CommandContext(
            registry: registry, environment: ["COLUMNS": "80", "NO_COLOR": "1"], currentDirectory: folder.path,
            readStandardInput: { Data() }, lines: ScriptedLines([], echo: output), standardOutput: output,
            standardError: errors, standardInputIsTerminal: false, standardOutputIsTerminal: false,
            standardErrorIsTerminal: false, catchesInterrupts: false)
        return await ShareCommand.run(arguments, context: context)
    }

    @Test func aWordWhereANumberGoes() async {
        let status = await run(["--activity", "mail", "--to", "a@example.com", "--set", "priority=abc", "notes.txt"])
        #expect(status == 64)
        #expect(errors.text == "share: Mail: --set priority=abc: Priority takes a whole number from 1 to 5\n")
    }

    @Test func aPresetAddressThatIsNotOneIsNamedWithItsOption() async {
        let status = await run(["--activity", "mail", "--to", "not an address", "notes.txt"])
        #expect(status == 64)
        #expect(errors.text == "share: Mail: --to 'not an address': not an e-mail address: not an address\n")
    }
}
