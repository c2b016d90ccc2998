// Suggestions over D-Bus (SPEC §12, issue #26): `ListSuggestions` lists what the history
// suggests for the items, and `Share` with `suggestion` runs that suggestion's activity with its
// presets instead of the sheet; through the Python client and through ShareSheetClient, against
// the real service on a private bus, with a loopback SMTP server as the mail server.
import Foundation
import LocalTestSupport
import ShareHistory
import ShareServiceProtocol
import ShareSheet
import ShareSheetClient
import ShareSheetSystem
import Sharing
import Testing

@Suite("Share service: suggestions", .serialized)
struct ServiceSuggestionTests {
    static let mailType = "com.apple.UIKit.activity.Mail"

    @Test("ListSuggestions for text: Mail to ana (three shares) first, then bo (one), each with every key and its presets")
    func listsTheHistorysSuggestions() async throws {
        try await withHistory { home, bus, _ in
            let client = ServiceClient(bus: bus)
            // Cold: the front D-Bus activation starts takes the call, and relays share's reply.
            #expect(try await bus.ownerPID() == nil, "nothing runs before the call")
            let suggestions = try await client.listSuggestions(["--text", "see you at 6"])
            #expect(ServiceBus.program(of: try await bus.servicePID()) == "share")
            let mail = suggestions.filter { $0["activity"] as? String == "mail" }
            #expect(mail.map { $0["id"] as? String } == ["mail:ana@example.com", "mail:bo@example.com"], "\(suggestions)")
            #expect(suggestions.first?["id"] as? String == "mail:ana@example.com", "ana first: \(suggestions)")
            let ana = try #require(mail.first)
            #expect(ana["activity-type"] as? String == Self.mailType)
            #expect(ana["presets"] as? [String: String] == ["to": "ana@example.com"])
            #expect(mail.last?["presets"] as? [String: String] == ["to": "bo@example.com"])
            #expect((ana["title"] as? String)?.isEmpty == false)
            for key in ["subtitle", "icon-name", "photo"] { #expect(ana[key] is String, "\(key) in \(ana)") }
            // Ranked per kind of item: a text file is a file, and nothing was ever shared as one.
            let notes = try home.file("notes.txt", Data("Montag\n".utf8))
            let forFile = try await client.listSuggestions(["--file", notes.path + ":text/plain"])
            #expect(forFile.allSatisfy { $0["activity"] as? String != "mail" }, "\(forFile)")
        }
    }

    @Test("ListSuggestions without history suggests nobody; excluding Mail takes its suggestions away")
    func nobodyWithoutHistoryOrMail() async throws {
        let home = try TemporaryHome(prefix: "service-suggestions")
        defer { home.remove() }
        let bus = try ServiceBus.start(home: home)
        defer { bus.stop() }
        let client = ServiceClient(bus: bus)
        #expect(try await client.listSuggestions(["--text", "hello"]).isEmpty)
        try Self.recordHistory(in: home)
        // Each listing reads the history as it is then.
        let all = try await client.listSuggestions(["--text", "hello"])
        #expect(all.contains { $0["activity"] as? String == "mail" }, "\(all)")
        let excluded = try await client.listSuggestions(["--text", "hello", "--option", "excluded-activities=[\"mail\"]"])
        #expect(excluded.allSatisfy { $0["activity"] as? String != "mail" }, "\(excluded)")
    }

    @Test("Share with suggestion ana, not interactive: Mail sends to ana at once, as --activity mail with To does")
    func shareWithASuggestionSends() async throws {
        try await withHistory { home, bus, peer in
            let result = try await ServiceClient(bus: bus).share([
                "--text", "see you at 6", "--interactive", "false", "--option", "suggestion=\"mail:ana@example.com\"",
            ])
            #expect(result["response"] as? Int == 0, "\(result)\n\(bus.logTail())")
            let results = try #require(result["results"] as? [String: Any], "\(result)")
            #expect(results["activity"] as? String == "mail")
            #expect(results["activity-type"] as? String == Self.mailType)
            #expect(results["disposition"] as? String == "sent", "\(results)")
            let message = try #require(peer.received.first, "nothing reached the SMTP server")
            #expect(peer.received.count == 1)
            #expect(try peer.envelope(of: message).recipients == ["ana@example.com"])
            // Recorded as any share the service carries out: one more Mail to ana.
            let history = ShareHistory(directories: XDGDirectories(environment: home.environment))
            let entries = try history.entries().entries
            #expect(entries.count == 5)
            #expect(entries.filter { $0.targets.contains { $0.value == "ana@example.com" } }.count == 4, "\(entries)")
        }
    }

    @Test("Share with a suggestion the sheet does not make: Response 2, error-field suggestion, the id named; nothing sent")
    func unknownSuggestionFails() async throws {
        try await withHistory { _, bus, peer in
            let result = try await ServiceClient(bus: bus).share([
                "--text", "hello", "--interactive", "false", "--option", "suggestion=\"mail:zoe@example.com\"",
            ])
            #expect(result["response"] as? Int == 2, "\(result)")
            let results = try #require(result["results"] as? [String: Any], "\(result)")
            #expect(results["error-field"] as? String == "suggestion", "\(results)")
            #expect(results["error-code"] as? String == "usage", "\(results)")
            #expect((results["error-message"] as? String)?.contains("mail:zoe@example.com") == true, "\(results)")
            // The activity named beside it must be the suggestion's own.
            let other = try await ServiceClient(bus: bus).share([
                "--text", "hello", "--interactive", "false", "--activity", "copy", "--option",
                "suggestion=\"mail:ana@example.com\"",
            ])
            #expect(other["response"] as? Int == 2, "\(other)")
            let otherResults = try #require(other["results"] as? [String: Any], "\(other)")
            #expect(otherResults["error-field"] as? String == "suggestion", "\(otherResults)")
            #expect(peer.received.isEmpty)
        }
    }

    @Test("through ShareSheetClient: listSuggestions decodes them, share with suggestion sends, an unknown one fails on suggestion")
    func swiftClient() async throws {
        try await withHistory { _, bus, peer in
            let client = ShareClient(busAddress: bus.address)
            let suggestions = try await client.listSuggestions(items: [.text("see you at 6")])
            let mail = suggestions.filter { $0.activity == "mail" }
            #expect(mail.map(\.id) == ["mail:ana@example.com", "mail:bo@example.com"], "\(suggestions)")
            let ana = try #require(mail.first)
            #expect(ana.presets == ["to": "ana@example.com"])
            #expect(ana.photo == "")
            let library = ActivitySuggestion(ana)
            #expect(library.activityType == .mail)
            #expect(library.photoPath == nil)

            let sent = try await client.share([.text("see you at 6")], WireOptions(interactive: false, suggestion: ana.id))
            #expect(sent.disposition == .sent, "\(sent)\n\(bus.logTail())")
            #expect(sent.activity == "mail")
            #expect(peer.received.count == 1)

            let unknown = try await client.share([.text("hello")], WireOptions(interactive: false, suggestion: "mail:zoe@example.com"))
            #expect(unknown.error?.field == "suggestion", "\(unknown)")
            #expect(unknown.error?.message.contains("mail:zoe@example.com") == true, "\(unknown)")
            #expect(peer.received.count == 1, "nothing more was sent")
        }
    }

    @Test("an interactive Share with suggestion ana: the window shows Mail's form with To filled, nothing sent; Escape answers 1")
    func interactiveSuggestionShowsItsForm() async throws {
        let home = try TemporaryHome(prefix: "service-suggestions")
        defer { home.remove() }
        try Self.recordHistory(in: home)
        let desktop = try DesktopSession.start(in: home.root.appendingPathComponent("desktop", isDirectory: true))
        defer { desktop.stop() }
        let bus = try ServiceBus.start(home: home, desktop: desktop)
        defer { bus.stop() }
        let client = ServiceClient(bus: bus)
        let started = try client.start([
            "share", "--text", "see you at 6", "--option", "suggestion=\"mail:ana@example.com\"", "--token", "suggested1",
        ])
        let driver = AccessibilityDriver(session: desktop, pid: try await bus.servicePID())
        try await driver.wait(name: "Subject", role: "text")
        #expect(try await driver.read(name: "To", role: "text") == "ana@example.com")
        try await driver.key("Escape")
        let output = try await client.finish(started)
        let result = try #require(output.objects.last, "client: \(output)")
        #expect(result["response"] as? Int == 1, "client: \(output); service: \(bus.logTail())")
        #expect((result["results"] as? [String: Any])?["activity"] as? String == "mail", "client: \(output)")
        #expect(home.entries(home.dataHome.appendingPathComponent("sharesheet/Outbox/new")).isEmpty, "nothing queued")
    }

    // MARK: Set-up

    /// Three Mail shares of text to ana, one to bo, in the person's history.
    static func recordHistory(in home: TemporaryHome) throws {
        let history = ShareHistory(directories: XDGDirectories(environment: home.environment))
        let now = Date()
        for (hoursAgo, address) in [(5, "ana@example.com"), (4, "bo@example.com"), (3, "ana@example.com"), (2, "ana@example.com")] {
            let entry = HistoryEntry(
                time: now.addingTimeInterval(-Double(hoursAgo) * 3600), activityType: mailType, activity: "mail",
                targets: [HistoryTarget(kind: .recipient, value: address)], items: [.init(kind: "text", count: 1)],
                disposition: "sent")
            _ = try history.record(entry, keepDays: 90)
        }
    }

    /// A home with that history and a loopback SMTP server as its mail server, and the service's bus.
    private func withHistory(_ body: (TemporaryHome, ServiceBus, SMTPPeer) async throws -> Void) async throws {
        let home = try TemporaryHome(prefix: "service-suggestions")
        defer { home.remove() }
        try Self.recordHistory(in: home)
        let peer = try SMTPPeer(in: home.root)
        defer { peer.stop() }
        try FileManager.default.createDirectory(at: home.configFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "[mail]\nsmtp=smtp://127.0.0.1:\(peer.port)\nstarttls=off\nfrom=me@example.com\n"
            .write(to: home.configFile, atomically: true, encoding: .utf8)
        let bus = try ServiceBus.start(home: home)
        defer { bus.stop() }
        try await body(home, bus, peer)
    }
}
