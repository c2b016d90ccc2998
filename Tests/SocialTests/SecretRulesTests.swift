// One Secret Service store (#15): posting tokens and the SMTP password follow the same rules, so
// an item made as the README says for the SMTP password (secret-tool, no schema name) is found
// the same way for a posting account.
import Foundation
import LocalTestSupport
import Testing

@Suite("Secret Service: one store, one set of rules", .serialized)
struct SecretRulesTests {
    @Test("a token stored with secret-tool (application org.sharesheet service NAME, no schema name) is an account; the SMTP item is not")
    func secretToolItems() throws {
        let sandbox = try Sandbox()
        let keyring = try KeyringSession(home: sandbox.home)
        defer { keyring.stop() }
        let bus = ["DBUS_SESSION_BUS_ADDRESS": keyring.address]
        try Command.output(
            "sh", ["-c", "printf '%s' tok-twitter-9 | secret-tool store --label=X application org.sharesheet service twitter"],
            environment: bus)
        try Command.output(
            "sh",
            ["-c", "printf '%s' pw | secret-tool store --label=SMTP application org.sharesheet service smtp server 127.0.0.1 user ana"],
            environment: bus)
        let listed = try ShareRunner.share(["accounts", "list"], sandbox: sandbox, extra: bus)
        #expect(listed.status == 0, "\(listed)")
        #expect(listed.output.hasPrefix("twitter   the Secret Service"), "\(listed.output)")
        #expect(!listed.output.contains("smtp"), "\(listed.output)")
        let removed = try ShareRunner.share(["accounts", "remove", "twitter"], sandbox: sandbox, extra: bus)
        #expect(removed.status == 0, "\(removed)")
        let left = try Command.output(
            "sh", ["-c", "secret-tool lookup application org.sharesheet service twitter || true"], environment: bus)
        #expect(left.isEmpty, "the item is gone: \(left)")
        let smtp = try Command.output("secret-tool", ["lookup", "application", "org.sharesheet", "service", "smtp"], environment: bus)
        #expect(smtp == "pw", "removing an account leaves the SMTP password")
    }
}
