import Foundation
import LocalTestSupport
import ShareSheet
import ShareSheetBuiltins
import Testing

/// `share help ACTIVITY` and `share --explain`: what an activity does here, with this
/// configuration, said before anything is shared.
@Suite("share help ACTIVITY, and the route in --explain")
final class ActivityHelpTests {
    let folder: URL
    /// A port nothing listens on: no print scheduler answers, whatever the machine runs.
    let noScheduler: [String: String]

    deinit { try? FileManager.default.removeItem(at: folder) }

    init() throws {
        folder = try TemporaryFolder.make("share-activity-help")
        noScheduler = ["CUPS_SERVER": "127.0.0.1:\(try Loopback.freePort())"]
        try Data("quarterly numbers\n".utf8).write(to: folder.appendingPathComponent("notes.txt"))
    }

    private func configure(_ text: String) throws {
        let config = folder.appendingPathComponent("home/config/sharesheet/config")
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: config)
    }

    private func help(_ name: String, environment: [String: String] = [:]) async throws -> ShareBinary.Run {
        try await ShareBinary.run(["help", name], in: folder, environment: noScheduler.merging(environment) { $1 })
    }

    @Test("mail without a server: the outbox, the key that changes it, the fields and the [mail] settings")
    func mailWithoutAServer() async throws {
        let run = try await help("mail")
        #expect(run.status == 0 && run.standardError.isEmpty, "\(run)")
        let outbox = folder.appendingPathComponent("home/data/sharesheet/Outbox").path
        #expect(run.standardOutput.hasPrefix("Mail (mail, com.apple.UIKit.activity.Mail): in the share row\n"), "\(run)")
        #expect(run.standardOutput.contains("here: no mail server is set: messages are kept in the outbox (\(outbox))\n"), "\(run)")
        #expect(run.standardOutput.contains("  to change it, set [mail] smtp= in ~/config/sharesheet/config\n"), "\(run)")
        #expect(run.standardOutput.contains("Fields (share --activity mail --set ID=VALUE):\n"), "\(run)")
        #expect(run.standardOutput.contains("  to       To       e-mail addresses, comma-separated; required\n"), "\(run)")
        #expect(run.standardOutput.contains("  body     Body     text (several lines)\n"), "\(run)")
        #expect(run.standardOutput.contains("Settings of [mail] in ~/config/sharesheet/config"), "\(run)")
        #expect(run.standardOutput.contains("  starttls (default: required)"), "\(run)")
    }

    @Test("mail with a server: where it sends and as whom")
    func mailWithAServer() async throws {
        try configure("[mail]\nsmtp=smtp://smtp.example.com:587\nfrom=ana@example.com\n")
        let run = try await help("mail")
        #expect(run.status == 0, "\(run)")
        #expect(run.standardOutput.contains("here: sends through smtp.example.com:587 as ana@example.com\n"), "\(run)")
        #expect(!run.standardOutput.contains("to change it"), "\(run)")
    }

    @Test("mail handing off: the desktop's mail program")
    func mailHandingOff() async throws {
        try configure("[mail]\nvia=mailto\n")
        let run = try await help("mail")
        #expect(run.standardOutput.contains("here: hands each message to the desktop's mail program"), "\(run)")
    }

    @Test("posting without an account names no API key as the way out (an account is)")
    func postingWithoutAnAccount() async throws {
        let run = try await help("twitter")
        #expect(run.standardOutput.contains("here: no account: opens X's share page in the browser"), "\(run)")
        #expect(!run.standardOutput.contains("set [twitter] api="), "\(run)")
    }

    @Test("print without a scheduler saves a PDF; a configured printer that is not there is said")
    func print() async throws {
        let run = try await help("print")
        #expect(run.status == 0, "\(run)")
        #expect(
            run.standardOutput.contains(
                "here: no printer: saves a PDF into \(folder.path)/home/Documents (a printer added to CUPS is used instead)\n"),
            "\(run)")
        // Naming a printer does not make one: the key is not offered as the fix.
        #expect(!run.standardOutput.contains("to change it, set [print] printer="), "\(run)")
        #expect(run.standardOutput.contains("  copies   Copies    a number from 1 to 999; default 1"), "\(run)")
        try configure("[print]\nprinter=Office\n")
        let named = try await help("print")
        #expect(named.standardOutput.contains("here: cannot print: printer Office: no such printer (no printers exist)\n"), "\(named)")
    }

    @Test("AirDrop: LocalSend on the local network, or only typed addresses when discovery is off")
    func airDrop() async throws {
        try configure("[nearby]\nalias=Ana's laptop\n")
        let run = try await help("airdrop")
        #expect(run.standardOutput.contains("here: sends to LocalSend devices on the local network, as 'Ana's laptop'\n"), "\(run)")
        #expect(run.standardOutput.contains("  to   Device  one choice; required; a device nearby"), "\(run)")
        // Nothing was made for a help page: no device identity.
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("home/config/sharesheet/nearby").path))
        let off = try await help("airdrop", environment: ["SHARESHEET_NEARBY": "off"])
        #expect(off.standardOutput.contains("here: discovery is off: sends only to a LocalSend device given as HOST[:PORT]\n"), "\(off)")
    }

    @Test("every built-in has a page: its title, and where it goes unless it cannot be offered at all")
    func everyActivity() async throws {
        for descriptor in await Self.builtIns() {
            // `share help reading-list` is the command's help; the activity's page is under its raw type.
            let run = try await help(descriptor.name == "reading-list" ? descriptor.type.rawValue : descriptor.name)
            #expect(run.status == 0 && run.standardError.isEmpty, "\(descriptor.name): \(run)")
            #expect(run.standardOutput.hasPrefix("\(descriptor.title) (\(descriptor.name), \(descriptor.type.rawValue))"), "\(run)")
            if descriptor.retiredReason == nil {
                #expect(run.standardOutput.contains("\nhere: "), "\(descriptor.name) says nothing of its route: \(run)")
            } else {
                #expect(run.standardOutput.contains("not available in this build: "), "\(run)")
            }
        }
    }

    @MainActor
    private static func builtIns() -> [BuiltInActivityDescriptor] {
        let registry = ActivityRegistry()
        Builtins.install(into: registry)
        return registry.descriptors
    }

    @Test("an unknown topic is a usage error with the closest name")
    func unknownTopic() async throws {
        let run = try await help("maill")
        #expect(run.status == 64, "\(run)")
        #expect(run.standardError == "share: help: no command, activity or topic 'maill' (did you mean 'mail'?)\n", "\(run)")
    }

    @Test("--explain says the route too: mail will wait in the outbox")
    func explainSaysTheRoute() async throws {
        let run = try await ShareBinary.run(["--explain", "mail", "notes.txt"], in: folder)
        #expect(run.status == 0, "\(run)")
        #expect(run.standardOutput.contains("offered: in the share row\nroute: no mail server is set: messages are kept in the outbox ("), "\(run)")
        #expect(run.standardOutput.contains("  to change it, set [mail] smtp= in ~/config/sharesheet/config\n"), "\(run)")
    }
}
