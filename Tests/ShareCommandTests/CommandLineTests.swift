import Foundation
import LocalTestSupport
import Testing

/// End-to-end tests of the built `share` executable: standard output, standard error and exit
/// status, with COLUMNS=80 and NO_COLOR=1, standard input from /dev/null or a file.
@Suite("share, end to end")
final class CommandLineTests {
    let fixture: CommandFolder
    var folder: URL { fixture.url }

    init() throws {
        fixture = try CommandFolder(["notes.txt": CommandFolder.notes, "a b;c.png": CommandFolder.pngSignature])
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("photos"), withIntermediateDirectories: true)
    }

    private func share(_ arguments: String..., input: ShareBinary.Input = .null) async throws -> ShareBinary.Run {
        try await ShareBinary.run(arguments, in: folder, input: input)
    }

    // MARK: 0

    @Test func versionPrintsTheVersion() async throws {
        let run = try await share("--version")
        #expect(run.status == 0)
        #expect(run.standardOutput == "share 0.1.0\n")
        #expect(run.standardError == "")
    }

    @Test func helpShowsUsageAndExamples() async throws {
        let run = try await share("--help")
        #expect(run.status == 0, "\(run)")
        #expect(run.standardError == "")
        #expect(run.standardOutput.hasPrefix("share: send files, links and text"))
        for expected in [
            "share --list [--json] ITEM...", "share --explain ACTIVITY ITEM...", "share --activity ACTIVITY ITEM...",
            "Examples:", "--exclude NAME[,NAME]", "reading-list", "Exit status:",
        ] {
            #expect(run.standardOutput.contains(expected), "help lacks \(expected)")
        }
        let wide = run.standardOutput.split(separator: "\n").filter { $0.count > 80 }
        #expect(wide.isEmpty, "help lines wider than 80 columns: \(wide)")
        #expect(try await share("-h").standardOutput == run.standardOutput)
    }

    @Test func listShowsItemsRowsAndEveryUnavailableReason() async throws {
        let run = try await share("--list", "notes.txt", "a b;c.png", "https://swift.org")
        #expect(run.status == 0, "\(run)")
        #expect(run.standardError == "")
        let lines = run.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(
            Array(lines.prefix(4)) == [
                "Items:",
                "  notes.txt          text file (public.plain-text, text/plain)",
                "  a b;c.png          image file (public.png, image/png)",
                "  https://swift.org  web link",
            ])
        let share = try #require(lines.firstIndex(of: "Share row:"))
        let action = try #require(lines.firstIndex(of: "Action row:"))
        let unavailable = try #require(lines.firstIndex(of: "Unavailable:"))
        #expect(share == 4 && share < action && action < unavailable)
        // Every built-in appears exactly once: offered in a row, or listed with its reason.
        let rows = lines[(share + 1)..<action] + lines[(action + 1)..<unavailable]
        let names = (rows + lines[(unavailable + 1)...]).compactMap { $0.split(separator: " ").first.map(String.init) }
        for name in Self.builtInNames {
            #expect(names.filter { $0 == name }.count == 1, "\(name) should be listed once: \(run.standardOutput)")
        }
        let reasons = lines[(unavailable + 1)...].filter { !$0.isEmpty }
        #expect(reasons.contains { $0.hasPrefix("  tencent-weibo  ") && $0.hasSuffix("the service closed in 2020") })
        // Reading List takes the web link; Vimeo takes no item here and says why.
        #expect(rows.contains { $0.hasPrefix("  reading-list ") })
        #expect(reasons.contains { $0.hasPrefix("  vimeo ") && $0.contains("videos only") })
    }

    /// The CLI names of SPEC §1.1's built-ins.
    private static let builtInNames = [
        "facebook", "twitter", "weibo", "tencent-weibo", "flickr", "vimeo", "message", "mail", "print", "copy",
        "contact", "photos", "reading-list", "airdrop",
    ]

    @Test func listJSONHasTheSpecShape() async throws {
        let run = try await share("--list", "--json", "notes.txt")
        #expect(run.status == 0, "\(run)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["items", "suggestions", "share", "action", "unavailable"])
        // No history and no contacts: nobody to suggest, and the key is still there.
        #expect((object["suggestions"] as? [Any])?.isEmpty == true)
        let share = try #require(object["share"] as? [[String: String]])
        let action = try #require(object["action"] as? [[String: String]])
        let unavailable = try #require(object["unavailable"] as? [[String: String]])
        for entry in share + action { #expect(Set(entry.keys) == ["name", "type", "title"]) }
        for entry in unavailable { #expect(Set(entry.keys) == ["name", "type", "title", "reason"]) }
        let all = (share + action + unavailable).compactMap { $0["name"] }
        for name in Self.builtInNames { #expect(all.filter { $0 == name }.count == 1, "\(name)") }
        let mail = try #require((share + unavailable).first { $0["name"] == "mail" })
        #expect(mail["type"] == "com.apple.UIKit.activity.Mail")
        #expect(mail["title"] == "Mail")
        let vimeo = try #require(unavailable.first { $0["name"] == "vimeo" })
        #expect(vimeo["reason"]?.contains("videos only") == true)
        #expect(unavailable.first { $0["name"] == "tencent-weibo" }?["reason"] == "the service closed in 2020")
        #expect(run.standardOutput.hasSuffix("}\n"))
    }

    @Test func excludedActivitiesAreListedWithTheReason() async throws {
        let run = try await share("--list", "--json", "--exclude", "mail,copy", "--exclude=print", "notes.txt")
        #expect(run.status == 0, "\(run)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        let unavailable = try #require(object["unavailable"] as? [[String: String]])
        let excluded = unavailable.filter { $0["reason"] == "excluded with --exclude" }.compactMap { $0["name"] }
        #expect(Set(excluded) == ["mail", "copy", "print"])
    }

    @Test func explainSaysWhyAndExits69WhenNotOffered() async throws {
        let run = try await share("--explain", "reading-list", "notes.txt", "a b;c.png")
        #expect(run.status == 69, "\(run)")
        #expect(run.standardError == "")
        #expect(
            run.standardOutput == """
                Add to Reading List (reading-list, com.apple.UIKit.activity.AddToReadingList)
                accepts: http and https links only
                items:
                  notes.txt  text file (public.plain-text)  not accepted
                  a b;c.png  image file (public.png)        not accepted
                not offered: it takes http and https links only, and got text file (public.plain-text), image file (public.png)

                """)
        let offered = try await share("--explain", "reading-list", "notes.txt", "https://swift.org")
        #expect(offered.status == 0, "\(offered)")
        #expect(offered.standardOutput.contains("  https://swift.org  web link                       accepted\n"))
    }

    @Test func explainAcceptsARawActivityType() async throws {
        let run = try await share("--explain", "com.apple.UIKit.activity.TencentWeibo", "a b;c.png")
        #expect(run.status == 69, "\(run)")
        #expect(run.standardOutput.contains("a b;c.png  image file (public.png)  accepted"))
        #expect(run.standardOutput.hasSuffix("not offered: the service closed in 2020\n"))
    }

    // MARK: 64

    @Test func unknownOptionIsAUsageError() async throws {
        let run = try await share("--lsit", "notes.txt")
        #expect(run.status == 64)
        #expect(run.standardOutput == "")
        #expect(run.standardError == "share: unknown option '--lsit' (did you mean '--list'?)\n")
    }

    @Test func unknownActivitySuggestsTheClosestName() async throws {
        let run = try await share("--activity", "mial", "notes.txt")
        #expect(run.status == 64)
        #expect(run.standardError == "share: unknown activity 'mial' (did you mean 'mail'?)\n")
        let far = try await share("--explain", "zzzzzzzz", "notes.txt")
        #expect(far.status == 64)
        #expect(far.standardError == "share: unknown activity 'zzzzzzzz' (see share --help for the names)\n")
    }

    @Test func nothingToShareIsAUsageError() async throws {
        let run = try await share("--list")
        #expect(run.status == 64)
        #expect(run.standardError == "share: nothing to share: give a file, a URL, - or --text\n")
        #expect(try await share().status == 64)
    }

    @Test func optionValueIsRequired() async throws {
        let run = try await share("notes.txt", "--activity")
        #expect(run.status == 64)
        #expect(run.standardError == "share: --activity needs a value\n")
        let twoModes = try await share("--list", "--activity", "mail", "notes.txt")
        #expect(twoModes.status == 64)
        #expect(twoModes.standardError == "share: --list and --activity cannot be used together\n")
    }

    @Test func neverPromptsWithoutATerminal() async throws {
        // The sheet needs a person; with /dev/null on standard input it must say so and stop.
        let run = try await share("notes.txt")
        #expect(run.status == 64, "\(run)")
        #expect(run.standardOutput == "")
        #expect(
            run.standardError
                == "share: standard input is not a terminal, so there is no sheet to answer: "
                + "use --activity NAME to share without one, or --list to see the names\n")
    }

    @Test func aMissingFileIsSaidBeforeTheMissingTerminal() async throws {
        // Two things are wrong; the one to fix first (the name) is the one said.
        let run = try await share("nosuch.png")
        #expect(run.status == 66, "\(run)")
        #expect(run.standardError == "share: nosuch.png: no such file\n", "\(run)")
    }

    @Test func theSheetOnATerminalShowsBothRowsAndEndOfInputDismisses() async throws {
        // On a real terminal the sheet asks; with nothing typed (end of input) it is dismissed.
        let run = try await ShareBinary.runOnTerminal(["https://swift.org"], in: folder)
        #expect(run.status == 130, "\(run)")
        #expect(run.standardOutput.contains("Share"), "\(run)")
        #expect(run.standardOutput.contains("Actions"), "\(run)")
        #expect(run.standardOutput.contains("Add to Reading List"), "\(run)")
    }

    @Test func theSheetOnATerminalSaysWhenNothingCanBeOffered() async throws {
        // Everything excluded: the sheet must say why instead of showing an empty sheet.
        let run = try await ShareBinary.runOnTerminal(
            ["--exclude", Self.builtInNames.joined(separator: ",") + ",open-in,mastodon", "notes.txt", "a b;c.png"],
            in: folder)
        #expect(run.status == 69, "\(run)")
        #expect(
            run.standardOutput
                == "share: no activity is available for these items: excluded with --exclude\n")
    }

    @Test func doubleDashEndsOptions() async throws {
        try Data("x".utf8).write(to: folder.appendingPathComponent("--list"))
        let run = try await share("--list", "--", "--list")
        #expect(run.status == 0, "\(run)")
        #expect(run.standardOutput.hasPrefix("Items:\n  --list  "))
    }

    // MARK: 65, 66

    @Test func webAddressWithoutHostIsBadData() async throws {
        let run = try await share("--list", "https://")
        #expect(run.status == 65)
        #expect(run.standardError == "share: https://: not a valid web address\n")
    }

    @Test func missingFile() async throws {
        let run = try await share("--list", "nope.txt")
        #expect(run.status == 66)
        #expect(run.standardOutput == "")
        #expect(run.standardError == "share: nope.txt: no such file\n")
    }

    @Test func directory() async throws {
        let run = try await share("--list", "photos/")
        #expect(run.status == 66)
        #expect(run.standardError == "share: photos/: is a folder; give the files in it instead (photos/*)\n")
    }

    @Test func emptyStandardInput() async throws {
        let run = try await share("--list", "-")
        #expect(run.status == 66)
        #expect(run.standardError == "share: -: standard input is empty\n")
    }

    @Test func unreadableFile() async throws {
        let secret = folder.appendingPathComponent("secret.txt")
        try Data("top secret".utf8).write(to: secret)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: secret.path)
        // Root reads anything; without CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH it is held to the
        // permission bits like anyone, so run share with those capabilities dropped.
        var prefix: [String] = []
        if geteuid() == 0 {
            let denial = try #require(
                UnreadableFiles.capabilityDropPrefix(checking: secret),
                "running as root, and setpriv could not drop the capabilities that bypass permissions")
            prefix = denial
        }
        let run = try await ShareBinary.run(["--list", "secret.txt"], in: folder, prefix: prefix)
        #expect(run.status == 66, "\(run)")
        #expect(run.standardError == "share: secret.txt: permission denied\n")
    }

    // MARK: Items

    @Test func oddFileNamesAreJustFiles() async throws {
        let run = try await share("--list", "a b;c.png")
        #expect(run.status == 0, "\(run)")
        #expect(run.standardOutput.hasPrefix("Items:\n  a b;c.png  image file (public.png, image/png)\n"))
    }

    @Test func fileURLsAndSchemeURLs() async throws {
        let fileURL = URL(fileURLWithPath: folder.appendingPathComponent("a b;c.png").path).absoluteString
        let run = try await share("--list", fileURL, "mailto:ana@example.com", "tel:+15551234567", "geo:48.2,16.4")
        #expect(run.status == 0, "\(run)")
        let items = run.standardOutput.components(separatedBy: "Share row:")[0].split(separator: "\n")
            .dropFirst().map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        #expect(
            items == [
                "\(fileURL) image file (public.png, image/png)", "mailto:ana@example.com mailto: link", "tel:+15551234567 tel: link",
                "geo:48.2,16.4 geo: link",
            ])
    }

    @Test func textOnStandardInputIsText() async throws {
        let run = try await share("--list", "-", "--text", "and more", input: .text("hello\n"))
        #expect(run.status == 0, "\(run)")
        #expect(run.standardOutput.hasPrefix("Items:\n  -           text\n  \"and more\"  text\n"))
    }

    @Test func bytesOnStandardInputAreData() async throws {
        let run = try await share("--list", "-", input: .bytes([0xFF, 0xFE, 0x00]))
        #expect(run.status == 0, "\(run)")
        let itemLine = run.standardOutput.split(separator: "\n").dropFirst().first.map(String.init) ?? ""
        #expect(itemLine.hasPrefix("  -  data ("), "standard input was not classified as data: \(itemLine)")
        #expect(!itemLine.contains("text"))
    }

    // MARK: 69 and --json

    @Test func activityUnavailableForTheseItems() async throws {
        let run = try await share("--activity", "vimeo", "notes.txt")
        #expect(run.status == 69)
        #expect(run.standardOutput == "")
        #expect(
            run.standardError
                == "share: vimeo is not available: it takes videos only, and got text file (public.plain-text)\n")
    }

    @Test func jsonResultCarriesTheError() async throws {
        let run = try await share("--activity", "vimeo", "--json", "--text", "hello")
        #expect(run.status == 69)
        #expect(run.standardError == "share: vimeo is not available: it takes videos only, and got text\n")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        #expect(
            Set(object.keys)
                == [
                    "activityType", "activity", "completed", "disposition", "location", "returnedItems", "fallback",
                    "error", "kept",
                ])
        #expect(object["disposition"] as? String == "failed")
        // Named with --activity, the activity is known although it never ran.
        #expect(object["activity"] as? String == "vimeo")
        #expect(object["activityType"] as? String == "com.apple.UIKit.activity.PostToVimeo")
        #expect(object["completed"] as? Bool == false)
        #expect((object["returnedItems"] as? [Any])?.isEmpty == true)
        let error = try #require(object["error"] as? [String: Any])
        #expect(error["code"] as? String == "unavailable")
        #expect(error["message"] as? String == "vimeo is not available: it takes videos only, and got text")
    }

    @Test func jsonResultForAMissingFile() async throws {
        let run = try await share("--activity", "mail", "--json", "nope.txt")
        #expect(run.status == 66)
        #expect(
            run.standardOutput
                == #"{"activity":"mail","activityType":"com.apple.UIKit.activity.Mail","completed":false,"disposition":"failed","error":{"code":"no-input","field":null,"fix":null,"hint":null,"message":"nope.txt: no such file","path":null,"setting":null},"fallback":null,"kept":null,"location":null,"returnedItems":[]}"#
                + "\n")
    }
}

/// Finding a way to make a file unreadable to `share` when the tests run as root.
enum UnreadableFiles {
    static let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// A `setpriv` prefix that drops the capabilities which let root ignore permission bits, if
    /// it really makes `file` unreadable (checked with `cat`); nil otherwise.
    static func capabilityDropPrefix(checking file: URL) -> [String]? {
        guard let setpriv else { return nil }
        let prefix = [setpriv, "--bounding-set=-dac_override,-dac_read_search", "--inh-caps=-dac_override,-dac_read_search"]
        guard let check = try? Command.run(setpriv, Array(prefix.dropFirst()) + ["/bin/cat", file.path]) else { return nil }
        return check.status != 0 ? prefix : nil
    }
}
