import Foundation
import LocalTestSupport
import ShareSheet
import ShareSheetSystem
import Testing

@Suite("Known configuration keys and warnings about the others")
struct ConfigurationKeysTests {
    private func load(_ text: String) throws -> Configuration {
        let folder = try TemporaryFolder.make("keys-tests")
        defer { TemporaryFolder(existing: folder).remove() }
        let file = folder.appendingPathComponent("config")
        try Data(text.utf8).write(to: file)
        return try Configuration.load(file: file)
    }

    @Test("a file of known keys only gives no warning")
    func knownKeysOnly() throws {
        let configuration = try load(
            """
            [mail]
            smtp=smtp://127.0.0.1:2525
            starttls=off
            [photos]
            subfolder=Shared
            [nearby]
            alias=Desk
            [mastodon]
            instance=mastodon.example
            [social]
            rate-limit-wait=10

            """)
        #expect(configuration.unknownKeys().isEmpty)
        #expect(configuration.warnings().isEmpty)
    }

    @Test("a misspelled key is reported with the key it probably means")
    func misspelledKeys() throws {
        let configuration = try load(
            """
            [mail]
            smtpserver=smtp://mail.example.com
            from=ana@example.com
            [photos]
            subfoldr=Shared
            [nearby]
            colour=blue

            """)
        #expect(
            configuration.warnings() == [
                "config: [mail] smtpserver is not a setting (did you mean smtp?)",
                "config: [nearby] colour is not a setting",
                "config: [photos] subfoldr is not a setting (did you mean subfolder?)",
            ])
        #expect(
            configuration.unknownKeys().first
                == UnknownConfigurationKey(group: "mail", key: "smtpserver", suggestion: "smtp"))
    }

    @Test("an unknown group is reported, even an empty one, with the group it probably means")
    func unknownGroups() throws {
        let configuration = try load("[mial]\nsmtp=smtp://x\n[zzz]\n[Mail]\n")
        #expect(
            configuration.warnings() == [
                "config: [Mail] is not a settings group (did you mean [mail]?)",
                "config: [mial] is not a settings group (did you mean [mail]?)",
                "config: [zzz] is not a settings group",
            ])
    }

    @Test("every group names the CLI activities that read it; the posting services share [social]")
    func activities() {
        #expect(Set(ConfigurationKeys.activities.keys) == Set(ConfigurationKeys.known.keys))
        #expect(ConfigurationKeys.groups(forActivity: "airdrop") == ["nearby"])
        #expect(ConfigurationKeys.groups(forActivity: "contact") == ["contacts"])
        #expect(ConfigurationKeys.groups(forActivity: "mastodon") == ["mastodon", "social"])
        #expect(ConfigurationKeys.keys(forActivity: "mail").contains("smtp"))
        #expect(ConfigurationKeys.keys(forActivity: "mastodon").isSuperset(of: ["instance", "rate-limit-wait"]))
        #expect(ConfigurationKeys.keys(forActivity: "copy").isEmpty)
    }

    @Test("suggestions: prefixes either way, up to two edits, nothing for a stranger")
    func suggestions() {
        let mail = ConfigurationKeys.known["mail"]!
        #expect(ConfigurationKeys.suggestion(for: "smtpserver", among: mail) == "smtp")
        #expect(ConfigurationKeys.suggestion(for: "startls", among: mail) == "starttls")
        #expect(ConfigurationKeys.suggestion(for: "FROM", among: mail) == "from")
        #expect(ConfigurationKeys.suggestion(for: "timeot", among: mail) == "timeout")
        #expect(ConfigurationKeys.suggestion(for: "password", among: mail) == nil)
    }
}
