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
        #expect(error.message.contains("chmod 600"))
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

    @Test("an empty or multi-line token is refused")
    func badToken() throws {
        let sandbox = try Sandbox()
        #expect(throws: ShareError.self) { try sandbox.accounts.save("  \n", for: .mastodon) }
        #expect(throws: ShareError.self) { try sandbox.accounts.save("a\nb", for: .mastodon) }
    }
}
