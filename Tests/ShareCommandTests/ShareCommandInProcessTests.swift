import Foundation
import LocalTestSupport
import ShareSheet
import ShareSheetTerminal
import ShareSheetTesting
import Sharing
import Testing

@testable import ShareCommand
@testable import ShareSheet

/// The command run in-process with in-memory backends, for what the built binary cannot reach
/// yet (no backend is installed in this build): performing, the sheet, and exit statuses.
@MainActor
@Suite("ShareCommand with in-memory backends")
final class ShareCommandInProcessTests {
    let backends = InMemoryBackends()
    let registry = ActivityRegistry()
    let output = TextBuffer()
    let errors = TextBuffer()
    let fixture: CommandFolder
    var folder: URL { fixture.url }

    init() throws {
        backends.install(into: registry)
        fixture = try CommandFolder()
    }

    private func run(
        _ arguments: [String], typing lines: [String]? = nil, standardInput: Data = Data()
    ) async -> Int32 {
        let context = CommandContext(
            registry: registry, environment: ["COLUMNS": "80", "NO_COLOR": "1"], currentDirectory: folder.path,
            readStandardInput: { standardInput }, lines: ScriptedLines(lines ?? [], echo: output),
            standardOutput: output, standardError: errors, standardInputIsTerminal: lines != nil,
            standardOutputIsTerminal: lines != nil, standardErrorIsTerminal: false, catchesInterrupts: false)
        return await ShareCommand.run(arguments, context: context)
    }

    @Test func performsAnActivityAndPrintsWhatItReturned() async {
        let status = await run(["--activity", "copy", "--text", "hello"])
        #expect(status == 0)
        #expect(errors.text == "")
        #expect(output.text == "hello\n")
        #expect(backends.received[.copyToPasteboard]?.first?.first as? String == "hello")
    }

    @Test func jsonResultOfASuccess() async throws {
        let status = await run(["--activity", "mail", "--json", "notes.txt"])
        #expect(status == 0)
        let path = folder.appendingPathComponent("notes.txt").standardizedFileURL.path
        #expect(
            output.text
                == #"{"activity":"mail","activityType":"com.apple.UIKit.activity.Mail","completed":true,"disposition":null,"error":null,"fallback":null,"kept":null,"location":null,"returnedItems":["\#(path)"]}"#
                + "\n")
    }

    /// Installs a Mail whose interface asks for recipients and a subject, like a real one.
    private func installComposingMail() -> ComposingMail.Record {
        let record = ComposingMail.Record()
        let descriptor = registry.descriptor(for: .mail)!
        registry.install(.mail) { ComposingMail(descriptor: descriptor, record: record) }
        return record
    }

    @Test func subjectRecipientsAndSettingsFillTheInterface() async {
        let record = installComposingMail()
        let status = await run([
            "--activity", "mail", "--subject", "Q3", "--to", "a@example.com", "--to", "b@example.com,c@example.com",
            "--set", "priority=3", "notes.txt",
        ])
        #expect(status == 0, "\(errors.text)")
        #expect(
            record.submitted == [
                "to": .list(["a@example.com", "b@example.com", "c@example.com"]), "subject": .text("Q3"),
                "priority": .integer(3),
            ])
        #expect(record.presets["subject"] == .text("Q3"))
    }

    @Test func aMissingRequiredFieldIsAUsageErrorWithoutAPrompt() async {
        let record = installComposingMail()
        let status = await run(["--activity", "mail", "notes.txt"])
        #expect(status == 64)
        #expect(errors.text == "share: Mail: To is required (set it with --to …)\n")
        #expect(record.submitted == nil)
        #expect(output.text == "")
    }

    @Test func cancellingTheInterfaceInTheSheetExits130() async {
        _ = installComposingMail()
        #expect(await run(["notes.txt"], typing: ["mail", "a@example.com"]) == 130)
        #expect(errors.text == "")
    }

    @Test func itemsAnActivityCannotUseMakeItUnavailable() async {
        let status = await run(["--activity", "reading-list", "notes.txt"])
        #expect(status == 69)
        #expect(
            errors.text
                == "share: reading-list is not available: it takes http and https links only, and got text file (public.plain-text)\n")
    }

    @Test func failuresMapToTheirExitStatus() async {
        backends.ending = .fail(ShareError(.temporaryFailure, "mail: the server is away; queued in the outbox"))
        #expect(await run(["--activity", "mail", "notes.txt"]) == 75)
        #expect(errors.text == "share: mail: the server is away; queued in the outbox\n")
    }

    @Test func anActivityThatDoesNotCompleteExitsOne() async {
        backends.ending = .finish(false)
        #expect(await run(["--activity", "copy", "--text", "hi"]) == 1)
        #expect(errors.text == "share: Copy did not complete\n")
    }

    @Test func theSheetPicksAndPerforms() async {
        let status = await run(["notes.txt"], typing: ["copy"])
        #expect(status == 0)
        #expect(backends.received[.copyToPasteboard]?.count == 1)
        let path = folder.appendingPathComponent("notes.txt").standardizedFileURL.path
        assertSnapshot(output.text.replacingOccurrences(of: path, with: "$FOLDER/notes.txt"), named: "command-sheet-copy")
    }

    @Test func dismissingTheSheetExits130() async {
        #expect(await run(["notes.txt"], typing: ["q"]) == 130)
        #expect(errors.text == "")
        #expect(backends.received.isEmpty)
    }

    @Test func theSheetWithJSONKeepsStandardOutputForTheResult() async throws {
        let status = await run(["--json", "--text", "hi"], typing: [""])
        #expect(status == 130)
        // The sheet went to standard error; standard output holds only the result.
        #expect(
            output.text.hasSuffix(
                #"{"activity":null,"activityType":null,"completed":false,"disposition":"cancelled","error":{"code":"cancelled","field":null,"fix":null,"hint":null,"message":"dismissed","path":null,"setting":null},"fallback":null,"kept":null,"location":null,"returnedItems":[]}"#
                    + "\n"))
        #expect(errors.text.contains("Share:"))
        #expect(!output.text.contains("Share:"))
    }

    @Test func exitStatusesComeFromOnePlace() {
        #expect(Termination.of(ShareError(.badData, "x: bad")) == Termination(status: 65, message: "x: bad"))
        #expect(Termination.of(CocoaError(.fileReadUnknown)).status == 74)
        #expect(Termination.of(ShareResult.dismissed, title: nil) == Termination(status: 130, message: nil))
        let cancelled = ShareResult(activity: "mail", completed: false, disposition: .cancelled)
        #expect(Termination.of(cancelled, title: "Mail").status == 130)
        let incomplete = ShareResult(activity: "mail", completed: false)
        #expect(Termination.of(incomplete, title: "Mail") == Termination(status: 1, message: "Mail did not complete"))
        let queued = ShareResult(
            activity: "mail", completed: false, disposition: .queued,
            error: .init(code: .temporaryFailure, message: "Mail: server down"))
        #expect(Termination.of(queued, title: "Mail") == Termination(status: 75, message: "Mail: server down"))
        let statuses = ShareError.Kind.allCases.map(Termination.status(of:))
        #expect(statuses == [64, 65, 66, 69, 74, 75, 78, 130])
        #expect(Termination(status: 1, message: "x").line == "share: x\n")
    }
}

/// A Mail backend stand-in with an interface: recipients (required), a subject, a priority.
final class ComposingMail: BuiltInActivity {
    /// What the activity saw.
    @MainActor
    final class Record {
        var submitted: InterfaceValues?
        var presets: InterfaceValues = [:]
    }

    private let record: Record

    init(descriptor: BuiltInActivityDescriptor, record: Record) {
        self.record = record
        super.init(descriptor: descriptor)
    }

    override func prepare(withActivityItems activityItems: [Any]) {
        record.presets = context.presetValues
    }

    override var activityInterface: ActivityInterface? {
        ActivityInterface(
            title: "New Message",
            fields: [
                InterfaceField(id: "to", label: "To", kind: .emailAddresses, isRequired: true),
                InterfaceField(id: "subject", label: "Subject", kind: .text),
                InterfaceField(id: "priority", label: "Priority", kind: .integer(1...5)),
            ]
        ) { [weak self] values in
            self?.record.submitted = values
            self?.activityDidFinish(true)
        }
    }
}
