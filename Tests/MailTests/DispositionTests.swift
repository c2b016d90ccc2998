import Foundation
import LocalTestSupport
import ShareSheet
import Testing

@testable import Mail

/// Where Mail and Message say the message went, in a sheet whose registry carries the host
/// environment of a temporary home (not this process's): the outbox, the server, the fallback
/// sentence and its hint.
@MainActor
@Suite("Mail and Message: disposition, location and fallback")
struct DispositionTests {
    /// A registry of Mail and Message with their default settings, for `home`'s environment.
    func controller(_ items: [Any], home: TestHome) -> ActivityViewController {
        let registry = ActivityRegistry(environment: HostEnvironment(variables: home.environment))
        registry.install(.mail) { MailActivity(descriptor: registry.descriptor(for: .mail)!) }
        registry.install(.message) { MessageActivity(descriptor: registry.descriptor(for: .message)!) }
        return ActivityViewController(activityItems: items, applicationActivities: nil, registry: registry)
    }

    func share(_ items: [Any], pick: ActivityType, values: InterfaceValues, home: TestHome) async -> ShareOutcome {
        let controller = controller(items, home: home)
        controller.present(with: ScriptedPresenter(pick: pick, values: values))
        return await controller.waitForCompletion()
    }

    @Test("no [mail] smtp=: queued in the host's outbox, and the fallback says so with the key to set")
    func mailWithoutServer() async throws {
        let home = try TestHome()
        let outcome = await share(["Hello"], pick: .mail, values: ["to": .text("bob@example.com")], home: home)
        #expect(outcome.completed, "\(String(describing: outcome.error))")
        let queued = home.outboxFiles("new")
        #expect(queued.count == 1)
        let id = try #require(queued.first)
        #expect(outcome.disposition == .queued)
        #expect(outcome.location == home.outbox.appendingPathComponent("new/\(id)").path)
        #expect(outcome.fallback?.message == "No mail server is set up, so the message waits in the outbox (\(id)).")
        // Facts, not a command line: the command words them (`share outbox flush`, `[mail] smtp=`).
        #expect(outcome.fallback?.fix == .flushOutbox)
        #expect(outcome.fallback?.setting == ShareError.Setting(group: "mail", "smtp"))
        // Said as the person sees it: the configuration folder is inside the home.
        #expect(outcome.fallback?.path == "~/config/sharesheet/config")
        #expect(outcome.fallback?.hint == nil)
    }

    @Test("a configured server: sent, the location is the server, no fallback")
    func mailSent() async throws {
        let home = try TestHome()
        let peer = try SMTPPeer(in: home.folder)
        defer { peer.stop() }
        try home.configure("[mail]\nsmtp=smtp://127.0.0.1:\(peer.port)\nstarttls=off\nfrom=ana@example.com\n")
        let outcome = await share(["Hello"], pick: .mail, values: ["to": .text("bob@example.com")], home: home)
        #expect(outcome.completed, "\(String(describing: outcome.error))")
        #expect(peer.received.count == 1)
        #expect(outcome.disposition == .sent)
        #expect(outcome.location == "smtp://127.0.0.1:\(peer.port)")
        #expect(outcome.fallback == nil)
        #expect(home.outboxFiles("new").isEmpty)
    }

    @Test("the server is down: a temporary failure, still queued, and the location is the kept message")
    func mailServerDown() async throws {
        let home = try TestHome()
        try home.configure("[mail]\nsmtp=smtp://127.0.0.1:\((try Loopback.freePort()))\nstarttls=off\n")
        let outcome = await share(["Hello"], pick: .mail, values: ["to": .text("bob@example.com")], home: home)
        #expect(!outcome.completed)
        let error = try #require(outcome.error as? ShareError)
        #expect(error.kind == .temporaryFailure)
        #expect(error.fix == .flushOutbox)
        let id = try #require(home.outboxFiles("new").first)
        #expect(outcome.disposition == .queued)
        #expect(outcome.location == home.outbox.appendingPathComponent("new/\(id)").path)
        #expect(outcome.fallback == nil)
    }

    @Test(
        "no sms: handler or KDE Connect: queued in the host's Messages outbox, and the fallback names [message] via=",
        .enabled(if: !DesktopLauncher.hasHandler(forScheme: "sms"), "this desktop has an sms: handler"))
    func messageWithoutHandler() async throws {
        let home = try TestHome()
        let outcome = await share(
            ["See you at 6"], pick: .message, values: ["to": .text("+15551234567")], home: home)
        #expect(outcome.completed, "\(String(describing: outcome.error))")
        let folder = home.dataHome.appendingPathComponent("sharesheet/Messages")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(files.count == 1)
        let file = try #require(files.first)
        #expect(outcome.disposition == .queued)
        #expect(outcome.location == folder.appendingPathComponent(file).path)
        let id = (file as NSString).deletingPathExtension
        #expect(
            outcome.fallback?.message
                == "No SMS handler or KDE Connect device is set up, so the message waits in the Messages outbox (\(id)).")
        #expect(outcome.fallback?.fix == .configureMessaging)
        #expect(outcome.fallback?.setting == ShareError.Setting(group: "message", "via"))
        // Said as the person sees it: the configuration folder is inside the home.
        #expect(outcome.fallback?.path == "~/config/sharesheet/config")
    }

    @Test("[message] via=outbox asked for the outbox: queued, and no fallback to explain")
    func messageOutboxChosen() async throws {
        let home = try TestHome()
        try home.configure("[message]\nvia=outbox\n")
        let outcome = await share(["Later"], pick: .message, values: ["to": .text("+15551234567")], home: home)
        #expect(outcome.completed, "\(String(describing: outcome.error))")
        #expect(outcome.disposition == .queued)
        #expect(outcome.location?.hasPrefix(home.dataHome.appendingPathComponent("sharesheet/Messages").path) == true)
        #expect(outcome.fallback == nil)
    }
}
