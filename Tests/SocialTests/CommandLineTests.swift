import Foundation
import LocalTestSupport
import Testing

/// The built `share` binary, as a user runs it: accounts, posting to mastodon-mock, exit codes.
@Suite("share accounts and posting from the command line", .serialized)
struct CommandLineTests {
    private func share(
        _ arguments: [String], sandbox: Sandbox, input: String = "", extra: [String: String] = [:]
    ) throws -> ShareRun {
        try ShareRunner.share(arguments, sandbox: sandbox, input: input, extra: extra)
    }

    // Vimeo: a Mastodon token is checked against its instance (AccountsCommandTests).
    @Test("accounts add reads the token from standard input, keeps it 0600, and never prints it")
    func accounts() throws {
        let sandbox = try Sandbox()
        let added = try share(["accounts", "add", "vimeo"], sandbox: sandbox, input: "tok-ABC-123\n")
        #expect(added.status == 0, "\(added)")
        #expect(added.output.contains("vimeo: token kept in the tokens file"))
        let listed = try share(["accounts", "list"], sandbox: sandbox)
        #expect(listed.output.hasPrefix("vimeo     the tokens file"))
        for run in [added, listed] { #expect(!(run.output + run.error).contains("tok-ABC-123")) }
        let file = sandbox.home.appendingPathComponent(".config/sharesheet/tokens")
        let mode = (try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o600)
        let unknown = try share(["accounts", "add", "myspace"], sandbox: sandbox, input: "x")
        #expect(unknown.status == 64)
        let removed = try share(["accounts", "remove", "vimeo"], sandbox: sandbox)
        #expect(removed.status == 0)
        #expect(try share(["accounts", "remove", "vimeo"], sandbox: sandbox).status == 66)
    }

    @Test("with a Secret Service on the session bus the token goes there, not to a file, and posting uses it")
    func secretService() async throws {
        let sandbox = try Sandbox()
        let keyring = try KeyringSession(home: sandbox.home)
        defer { keyring.stop() }
        let server = try await MastodonMock()
        defer { server.stop() }
        try sandbox.writeConfiguration("[mastodon]\ninstance=\(server.baseURL.absoluteString)\n")
        let bus = ["DBUS_SESSION_BUS_ADDRESS": keyring.address]
        let added = try share(["accounts", "add", "mastodon"], sandbox: sandbox, input: MastodonMock.token, extra: bus)
        #expect(added.status == 0, "\(added)")
        #expect(added.output.contains("mastodon: token for @testuser kept in the Secret Service"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.home.appendingPathComponent(".config/sharesheet/tokens").path))
        let listed = try share(["accounts", "list"], sandbox: sandbox, extra: bus)
        #expect(listed.output.hasPrefix("mastodon  the Secret Service"))
        let posted = try share(["--activity", "mastodon", "--text", "Token from the keyring"], sandbox: sandbox, extra: bus)
        #expect(posted.status == 0, "\(posted)")
        #expect(try await server.statuses().count == 1)
        #expect(try share(["accounts", "remove", "mastodon"], sandbox: sandbox, extra: bus).status == 0)
        let after = try share(["accounts", "list"], sandbox: sandbox, extra: bus)
        #expect(after.output.hasPrefix("no accounts"))
    }

    /// The names `share --list` offers (share row and action row).
    private func offered(_ listing: String) -> [String] {
        var names: [String] = []
        var inRows = false
        for line in listing.split(separator: "\n") {
            if !line.hasPrefix(" ") {
                inRows = line == "Share row:" || line == "Action row:"
            } else if inRows, let name = line.split(separator: " ").first {
                names.append(String(name))
            }
        }
        return names
    }

    @Test("the sheet knows which services have an account in the Secret Service without asking it; without the list, one search and no secret")
    func presenceWithoutSecrets() throws {
        let sandbox = try Sandbox()
        let keyring = try KeyringSession(home: sandbox.home)
        defer { keyring.stop() }
        let bus = ["DBUS_SESSION_BUS_ADDRESS": keyring.address]
        // X rather than Mastodon, whose token would be checked against an instance.
        for (service, token) in [("twitter", "tok-twitter-1"), ("flickr", "key:secret:tok-flickr-2:token-secret")] {
            let added = try share(["accounts", "add", service], sandbox: sandbox, input: token, extra: bus)
            #expect(added.status == 0, "\(added)")
        }
        let list = sandbox.home.appendingPathComponent(".cache/sharesheet/secret-service-accounts")
        let listed = try String(contentsOf: list, encoding: .utf8)
        #expect(listed.split(separator: "\n").filter { !$0.hasPrefix("#") } == ["flickr", "twitter"])
        #expect(!listed.contains("tok-"))
        let mode = (try FileManager.default.attributesOfItem(atPath: list.path)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o600)
        _ = try sandbox.file("photo.png", tinyPNG)

        let monitor = try keyring.monitor()
        let photo = try share(["--list", "photo.png"], sandbox: sandbox, extra: bus)
        let text = try share(["--list", "--text", "hi"], sandbox: sandbox, extra: bus)
        let link = try share(["--list", "https://swift.org"], sandbox: sandbox, extra: bus)
        #expect(monitor.stop() == [])
        for run in [photo, text, link] { #expect(run.status == 0, "\(run)") }
        // Flickr has no share page and X's takes no photo: both are offered only because their
        // accounts are known.
        #expect(offered(photo.output).contains("flickr"))
        #expect(offered(photo.output).contains("twitter"))

        // Without the list (a cleaned cache, or tokens kept by an older ShareSheet): one
        // attributes-only search, no session for secrets, nothing read or unlocked; the list is
        // written again.
        try FileManager.default.removeItem(at: list)
        let searching = try keyring.monitor()
        let again = try share(["--list", "photo.png"], sandbox: sandbox, extra: bus)
        #expect(searching.stop() == ["Service.SearchItems"])
        #expect(again.output == photo.output)
        #expect(try String(contentsOf: list, encoding: .utf8) == listed)
    }

    @Test("a locked keyring: the sheet offers the account without an unlock prompt; posting fails in one line saying to unlock it")
    func lockedKeyring() async throws {
        let sandbox = try Sandbox()
        let keyring = try KeyringSession(home: sandbox.home)
        defer { keyring.stop() }
        let server = try await MastodonMock()
        defer { server.stop() }
        try sandbox.writeConfiguration("[mastodon]\ninstance=\(server.baseURL.absoluteString)\n")
        let bus = ["DBUS_SESSION_BUS_ADDRESS": keyring.address]
        #expect(try share(["accounts", "add", "mastodon"], sandbox: sandbox, input: MastodonMock.token, extra: bus).status == 0)
        try keyring.lock()
        let monitor = try keyring.monitor()
        let listed = try share(["--list", "--text", "hi"], sandbox: sandbox, extra: bus)
        #expect(monitor.stop() == [])
        #expect(offered(listed.output).contains("mastodon"))
        let posted = try share(["--activity", "mastodon", "--text", "From a locked keyring"], sandbox: sandbox, extra: bus)
        #expect(posted.status == 69, "\(posted)")
        #expect(posted.error.split(separator: "\n").count == 1)
        #expect(posted.error.contains("mastodon: the Mastodon token is in a locked keyring: unlock it"))
        #expect(try await server.statuses().isEmpty)
    }

    @Test("an item removed behind share's back: posting says to add the account again, and the sheet stops offering it")
    func removedItem() throws {
        let sandbox = try Sandbox()
        let keyring = try KeyringSession(home: sandbox.home)
        defer { keyring.stop() }
        let bus = ["DBUS_SESSION_BUS_ADDRESS": keyring.address]
        #expect(try share(["accounts", "add", "flickr"], sandbox: sandbox, input: "k:s:t:ts", extra: bus).status == 0)
        _ = try sandbox.file("photo.png", tinyPNG)
        try keyring.deleteItem(service: "flickr")
        // The sheet goes by the list share accounts wrote; the Secret Service is asked at the post.
        #expect(offered(try share(["--list", "photo.png"], sandbox: sandbox, extra: bus).output).contains("flickr"))
        let posted = try share(["--activity", "flickr", "photo.png"], sandbox: sandbox, extra: bus)
        #expect(posted.status == 69, "\(posted)")
        #expect(posted.error.split(separator: "\n").count == 1)
        #expect(
            posted.error.contains(
                "flickr: the Flickr account is no longer in the Secret Service (it was removed): run share accounts add flickr"))
        let after = try share(["--list", "photo.png"], sandbox: sandbox, extra: bus)
        #expect(!offered(after.output).contains("flickr"))
        #expect(after.output.contains("Flickr has no web share page, so it needs an account: run share accounts add flickr"))
    }

    @Test("share --activity mastodon posts text and a file named 'a b;c.png', prints the status URL")
    func post() async throws {
        let server = try await MastodonMock()
        defer { server.stop() }
        let sandbox = try Sandbox()
        try sandbox.writeConfiguration("[mastodon]\ninstance=\(server.baseURL.absoluteString)\n")
        #expect(try share(["accounts", "add", "mastodon"], sandbox: sandbox, input: MastodonMock.token).status == 0)
        _ = try sandbox.file("a b;c.png", tinyPNG)
        let run = try share(["--activity", "mastodon", "--text", "From the command line", "a b;c.png"], sandbox: sandbox)
        #expect(run.status == 0, "\(run)")
        let statuses = try await server.statuses()
        #expect(statuses.count == 1)
        #expect((statuses.first?["media_attachments"] as? [Any])?.count == 1)
        #expect(run.output == (statuses.first?["url"] as? String ?? "?") + "\n")
        #expect(!(run.output + run.error).contains(MastodonMock.token))
    }

    @Test("network down exits 75 (queued); a missing file exits 66; Flickr without an account is explained (69)")
    func failures() throws {
        let sandbox = try Sandbox()
        try sandbox.writeConfiguration("[mastodon]\ninstance=http://127.0.0.1:\((try Loopback.freePort()))\n")
        // share accounts add would check the token against the closed port: the environment's wins.
        let offline = try share(["--activity", "mastodon", "--text", "hi"], sandbox: sandbox, extra: ["SHARESHEET_TOKEN_MASTODON": "t"])
        #expect(offline.status == 75, "\(offline)")
        #expect(offline.error.contains("cannot be reached now; the post will go when it can"), "\(offline.error)")
        let missing = try share(["--activity", "mastodon", "missing.png"], sandbox: sandbox, extra: ["SHARESHEET_TOKEN_MASTODON": "t"])
        #expect(missing.status == 66)
        _ = try sandbox.file("p.png", tinyPNG)
        let explained = try share(["--explain", "flickr", "p.png"], sandbox: sandbox)
        #expect(explained.status == 69)
        #expect(explained.output.contains("run share accounts add flickr"))
        let tencent = try share(["--explain", "tencent-weibo", "--text", "hi"], sandbox: sandbox)
        #expect(tencent.output.contains("the service closed in 2020"))
    }
}
