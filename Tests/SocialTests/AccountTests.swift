import Foundation
import ShareSheet
import Testing

@testable import Social

/// Tokens in the 0600 tokens file when no Secret Service answers; never shown.
@Suite("Accounts")
struct AccountTests {
    @Test("without a session bus the token goes to a 0600 file, written atomically, and comes back")
    func fileFallback() throws {
        let sandbox = try Sandbox()
        let store = sandbox.accounts
        #expect(try store.token(for: .mastodon) == nil)
        #expect(try store.save("  s3cret-token\n", for: .mastodon) == .file)
        let info = try FileManager.default.attributesOfItem(atPath: store.tokensFile.path)
        #expect((info[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: store.tokensFile.deletingLastPathComponent().path)
        #expect(((folder[.posixPermissions] as? NSNumber)?.intValue ?? 0) & 0o077 == 0)
        #expect(try store.token(for: .mastodon)?.secret == "s3cret-token")
        #expect(try store.token(for: .mastodon)?.location == .file)
        // No temporary file is left next to it.
        let left = try FileManager.default.contentsOfDirectory(atPath: store.tokensFile.deletingLastPathComponent().path)
        #expect(left.sorted() == ["tokens"])
        try store.save("other", for: .twitter)
        #expect(try store.list().map(\.service) == [.twitter, .mastodon])
        #expect(try store.remove(.mastodon))
        #expect(try store.token(for: .mastodon) == nil)
        #expect(try store.token(for: .twitter)?.secret == "other")
        #expect(try !store.remove(.mastodon))
    }

    @Test("a tokens file other users can read is refused, with the fix")
    func loosePermissions() throws {
        let sandbox = try Sandbox()
        let store = sandbox.accounts
        try store.save("t", for: .weibo)
        chmod(store.tokensFile.path, 0o644)
        let error = try #require(throws: ShareError.self) { try store.token(for: .weibo) }
        #expect(error.fix == .protectFile && error.path == store.tokensFile.path, "\(error)")
    }

    @Test("a token's description never shows it")
    func neverPrinted() throws {
        let sandbox = try Sandbox()
        try sandbox.accounts.save("very-secret-value", for: .vimeo)
        let token = try #require(try sandbox.accounts.token(for: .vimeo))
        #expect(!"\(token)".contains("very-secret-value"))
        #expect(!String(reflecting: token).contains("very-secret-value"))
        var dumped = ""
        dump(token, to: &dumped)
        #expect(!dumped.contains("very-secret-value"))
    }

    @Test("SHARESHEET_TOKEN_SERVICE wins over the file")
    func environment() throws {
        let sandbox = try Sandbox()
        try sandbox.accounts.save("from-file", for: .twitter)
        var env = sandbox.environment
        env["SHARESHEET_TOKEN_TWITTER"] = "from-env"
        let store = AccountStore(directories: sandbox.directories, environment: env)
        #expect(try store.token(for: .twitter)?.secret == "from-env")
        #expect(try store.token(for: .twitter)?.location == .environment)
    }

    @Test("whether there is an account: the environment, then the Secret Service's list, then the tokens file")
    func presence() throws {
        let sandbox = try Sandbox()
        try sandbox.accounts.save("from-file", for: .mastodon)
        try sandbox.accounts.save("from-file", for: .weibo)
        #expect(try sandbox.accounts.account(for: .mastodon) == .file)
        #expect(try sandbox.accounts.account(for: .twitter) == nil)
        // A session bus to use, and the list share accounts keeps of the Secret Service's items.
        var env = sandbox.environment
        env["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(sandbox.home.path)/no-bus"
        env["SHARESHEET_TOKEN_TWITTER"] = "from-env"
        try AccountIndex(directories: sandbox.directories).write([.mastodon, .flickr])
        let store = AccountStore(directories: sandbox.directories, environment: env)
        #expect(try store.account(for: .mastodon) == .secretService)
        #expect(try store.account(for: .flickr) == .secretService)
        #expect(try store.account(for: .weibo) == .file)
        #expect(try store.account(for: .twitter) == .environment)
        #expect(try store.account(for: .vimeo) == nil)
        #expect(store.hasToken(for: .flickr) && !store.hasToken(for: .vimeo))
        // SHARESHEET_SECRET_STORE=file: the list is not used.
        env["SHARESHEET_SECRET_STORE"] = "file"
        #expect(try AccountStore(directories: sandbox.directories, environment: env).account(for: .flickr) == nil)
    }

    @Test("a token that left the tokens file after the sheet was built: one line naming the service and the fix")
    func tokenGoneFromFile() throws {
        let sandbox = try Sandbox()
        let store = sandbox.accounts
        try store.save("t", for: .vimeo)
        let location = try #require(try store.account(for: .vimeo))
        #expect(try store.tokenForPosting(to: .vimeo, keptIn: location).secret == "t")
        try store.remove(.vimeo)
        let error = try #require(throws: ShareError.self) { try store.tokenForPosting(to: .vimeo, keptIn: location) }
        #expect(error.kind == .unavailable)
        #expect(error.message == "vimeo: the Vimeo account is no longer in \(store.tokensFile.path)")
        #expect(error.fix == .addAccount && error.setting == ShareError.Setting(group: "accounts", "vimeo"))
    }

    @Test("an empty or multi-line token is refused")
    func badToken() throws {
        let sandbox = try Sandbox()
        #expect(throws: ShareError.self) { try sandbox.accounts.save("  \n", for: .mastodon) }
        #expect(throws: ShareError.self) { try sandbox.accounts.save("a\nb", for: .mastodon) }
    }
}
