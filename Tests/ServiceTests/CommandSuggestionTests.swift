// `share --via-service --suggestion ID`: the command hands the suggestion's id to the service,
// which picks it (SPEC §12) as `Share`'s `suggestion` option does; an id the service does not
// suggest is the command's usage error.
import Foundation
import LocalTestSupport
import Testing

@Suite("share --via-service --suggestion", .serialized)
struct CommandSuggestionTests {
    @Test("--via-service --list shows the service's suggestions; --suggestion mail:ana@example.com sends to ana through it; an unknown id exits 64")
    func throughTheService() async throws {
        let home = try TemporaryHome(prefix: "command-suggestion")
        defer { home.remove() }
        try ServiceSuggestionTests.recordHistory(in: home)
        let peer = try SMTPPeer(in: home.root)
        defer { peer.stop() }
        try FileManager.default.createDirectory(at: home.configFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "[mail]\nsmtp=smtp://127.0.0.1:\(peer.port)\nstarttls=off\nfrom=me@example.com\n"
            .write(to: home.configFile, atomically: true, encoding: .utf8)
        let bus = try ServiceBus.start(home: home)
        defer { bus.stop() }
        // --list through the service: the service's suggestions, as ListSuggestions gives them.
        let listed = try await Share.run(["--via-service", "--list", "--json", "--text", "hi"], home: home, extra: bus.environment)
        #expect(listed.status == 0, "\(listed.standardError)")
        let object = try JSONSerialization.jsonObject(with: listed.output) as? [String: Any]
        let suggestions = object?["suggestions"] as? [[String: Any]] ?? []
        #expect(
            suggestions.compactMap { $0["id"] as? String }.prefix(2) == ["mail:ana@example.com", "mail:bo@example.com"],
            "\(listed.standardOutput)")
        #expect(suggestions.first?["presets"] as? [String: String] == ["to": "ana@example.com"])
        let run = try await Share.run(
            ["--via-service", "--suggestion", "mail:ana@example.com", "--text", "see you at 6"], home: home, extra: bus.environment)
        #expect(run.status == 0, "\(run.standardError)\n\(bus.logTail())")
        let message = try #require(peer.received.first, "nothing reached the SMTP server: \(run.standardError)")
        #expect(try peer.envelope(of: message).recipients == ["ana@example.com"])
        let unknown = try await Share.run(
            ["--via-service", "--suggestion", "mail:zoe@example.com", "--text", "hello"], home: home, extra: bus.environment)
        #expect(unknown.status == 64, "\(unknown.standardError)")
        #expect(unknown.standardError.contains("mail:zoe@example.com"), "\(unknown.standardError)")
        #expect(peer.received.count == 1)
    }
}
