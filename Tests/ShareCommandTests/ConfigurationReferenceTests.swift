import Foundation
import LocalTestSupport
import ShareSheetSystem
import Testing

/// The configuration reference is made from the table the program checks keys against, and the
/// README's copy is that text, so neither can drift from what the program reads.
@Suite("share help config, the man page and README.md: one configuration reference")
final class ConfigurationReferenceTests {
    let folder: URL

    deinit { try? FileManager.default.removeItem(at: folder) }

    init() throws {
        folder = try TemporaryFolder.make("share-config-reference")
    }

    private static var readme: String {
        get throws {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent()
            return try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        }
    }

    @Test("README.md's section between the config-reference markers is what share help config prints")
    func readmeMatches() async throws {
        let run = try await ShareBinary.run(["help", "config"], in: folder)
        #expect(run.status == 0 && run.standardError.isEmpty, "\(run)")
        let readme = try Self.readme
        let begin = try #require(readme.range(of: "<!-- config-reference:begin -->\n```text\n"))
        let end = try #require(readme.range(of: "```\n<!-- config-reference:end -->", range: begin.upperBound..<readme.endIndex))
        let section = String(readme[begin.upperBound..<end.lowerBound])
        #expect(section == run.standardOutput, "regenerate the README section with: share help config")
    }

    @Test("every group and key the program checks is in the reference with a default, within 80 columns")
    func everyKeyIsListed() async throws {
        let text = try await ShareBinary.run(["help", "config"], in: folder).standardOutput
        for line in text.split(separator: "\n") { #expect(line.count <= 80, "too wide: \(line)") }
        for (group, keys) in ConfigurationKeys.known {
            #expect(text.contains("\n[\(group)] "), "the reference lacks [\(group)]")
            for key in keys { #expect(text.contains("\n  \(key) (default: "), "the reference lacks [\(group)] \(key)") }
        }
    }

    @Test("the declarations keep the table other code reads: known, activities and keys(forActivity:)")
    func tableIsKept() {
        #expect(ConfigurationKeys.known["mail"] == ["smtp", "from", "user", "starttls", "cafile", "via", "timeout", "undo-seconds", "image-size"])
        #expect(ConfigurationKeys.known["limits"] == ["stdin"])
        #expect(ConfigurationKeys.activities["nearby"] == ["airdrop"])
        #expect(ConfigurationKeys.activities["targets"] == [])
        #expect(ConfigurationKeys.keys(forActivity: "mastodon") == ["rate-limit-wait", "image-size", "instance", "api", "max-characters", "visibility"])
        #expect(ConfigurationKeys.groups.count == ConfigurationKeys.known.count)
    }

    @Test("the man page has the reference: every group with its keys")
    func manPageHasIt() async throws {
        let page = try await ShareBinary.run(["man-page"], in: folder).standardOutput
        #expect(page.contains(".SH CONFIGURATION\n"))
        for group in ConfigurationKeys.groups {
            #expect(page.contains(".SS [\(group.name)]\n"), "the man page lacks [\(group.name)]")
            for setting in group.settings {
                #expect(page.contains(".TP\n\\fB" + setting.key.replacingOccurrences(of: "-", with: "\\-") + "\\fR (default: "))
            }
        }
    }
}
