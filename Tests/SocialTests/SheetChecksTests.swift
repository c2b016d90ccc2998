import Foundation
import ShareSheet
import ShareSheetSystem
import Testing

@testable import Social

/// The posting activities of a sheet check the host's configuration and accounts once for the
/// whole sheet, and say exactly what each would say when asked on its own.
@MainActor
@Suite("Posting activities' checks, once per sheet")
struct SheetChecksTests {
    private func registry(_ sandbox: Sandbox) -> ActivityRegistry {
        let registry = ActivityRegistry(environment: HostEnvironment(variables: sandbox.environment))
        SocialActivities.install(into: registry)
        return registry
    }

    /// Each posting activity's reason on the sheet (nil when offered), and asked directly.
    private func reasons(_ items: [Any], _ sandbox: Sandbox) -> (sheet: [SocialService: String?], direct: [SocialService: String?]) {
        let registry = registry(sandbox)
        let sheet = ActivityViewController(activityItems: items, applicationActivities: nil, registry: registry).sheet
        var onSheet: [SocialService: String?] = [:]
        var direct: [SocialService: String?] = [:]
        for service in SocialService.allCases {
            let offered = sheet.activities.contains { $0.activityType == service.activityType }
            onSheet[service] = .some(offered ? nil : sheet.unavailable.first { $0.activity.activityType == service.activityType }?.reason)
            let alone = registry.makeActivities().first { $0.activityType == service.activityType }!
            direct[service] = .some(alone.unavailableReason(forActivityItems: items))
            #expect(alone.canPerform(withActivityItems: items) == (direct[service]! == nil))
        }
        return (onSheet, direct)
    }

    @Test("an account in the tokens file, text and an image: the sheet says what each says alone")
    func sameAsAlone() throws {
        let sandbox = try Sandbox()
        try sandbox.accounts.save("token", for: .mastodon)
        let image = try sandbox.file("photo.png", tinyPNG)
        for items in [["Hello"], ["Hello", image], [image], ["Hello", URL(string: "https://example.com/a")!]] as [[Any]] {
            let (sheet, direct) = reasons(items, sandbox)
            #expect(sheet == direct, "\(items)")
        }
        let (sheet, _) = reasons(["Hello", image], sandbox)
        #expect(sheet[.mastodon] == .some(nil))  // posts through the API with the attachment
        #expect(sheet[.twitter]??.contains("cannot take files") == true)
        #expect(sheet[.vimeo]??.hasPrefix("it takes videos only, and got text, image file") == true)
    }

    @Test("a tokens file others can read: every service names it, on the sheet and alone")
    func unreadableTokens() throws {
        let sandbox = try Sandbox()
        try sandbox.accounts.save("token", for: .mastodon)
        chmod(sandbox.accounts.tokensFile.path, 0o644)
        let (sheet, direct) = reasons(["Hello"], sandbox)
        #expect(sheet == direct)
        #expect(sheet[.mastodon]??.contains("other users can read it") == true)
    }

    @Test("a malformed configuration file: offered, the error waits for the post")
    func malformedConfiguration() throws {
        let sandbox = try Sandbox()
        try sandbox.writeConfiguration("[mastodon\ninstance=")
        let image = try sandbox.file("photo.png", tinyPNG)
        let (sheet, direct) = reasons(["Hello", image], sandbox)
        #expect(sheet == direct)
        #expect(sheet[.twitter] == .some(nil))  // with a readable file: its share page cannot take files
        #expect(sheet[.flickr] == .some(nil))
    }

    @Test("one lookup reads the tokens file once for every service; account(for:) reads it each time")
    func lookupReadsOnce() throws {
        let sandbox = try Sandbox()
        try sandbox.accounts.save("token", for: .mastodon)
        let store = sandbox.accounts
        let lookup = AccountStore.Lookup(store)
        #expect(try lookup.account(for: .mastodon) == .file)
        try FileManager.default.removeItem(at: store.tokensFile)
        #expect(try lookup.account(for: .mastodon) == .file)
        #expect(try lookup.account(for: .twitter) == nil)
        #expect(try store.account(for: .mastodon) == nil)
    }
}
