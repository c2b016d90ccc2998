import Foundation
import LocalTestSupport
import Testing

/// `share accounts add` and `list` as a person meets them: the token typed under a
/// pseudo-terminal with echo off, a Mastodon token checked against mastodon-mock before it is
/// kept, each service's token format, and the JSON listing.
@Suite("share accounts: typing, checking and listing tokens", .serialized)
struct AccountsCommandTests {
    /// What a pseudo-terminal showed while `share` ran in it, and how the shell ended.
    struct Screen {
        var status: Int32
        var transcript: String
    }

    /// Runs `share ARGUMENTS` under `script` (a pseudo-terminal), types `keys` once
    /// `Token for mastodon: ` shows, then prints the terminal's settings (`stty -a`) so a test
    /// can see that echo is back.
    private func typed(_ arguments: [String], keys: String, sandbox: Sandbox) throws -> Screen {
        let binary = try #require(Share.url, "the share executable was not found next to the test bundle")
        let quoted = ([binary.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        // The shell traps SIGINT (its child gets the default action back) so that it lives on
        // after Ctrl-C to show the terminal's settings.
        let command = "trap : INT; " + quoted.joined(separator: " ") + "; status=$?; stty -a; exit $status"
        // -E always: the terminal echoes what is typed, as a person's does, unless share turns it off.
        let process = try Command.start(
            "/usr/bin/script", ["-q", "-e", "-E", "always", "-c", command, "/dev/null"],
            environment: ShareRunner.environment(sandbox, extra: ["SHELL": "/bin/sh", "TERM": "xterm"]), in: sandbox.home,
            input: .pipe)
        defer { process.remove() }
        let deadline = Date().addingTimeInterval(180)
        while !process.standardOutput.contains("Token for mastodon: "), process.isRunning, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(process.standardOutput.contains("Token for mastodon: "), "no prompt: \(process.standardOutput)")
        process.input?.write(Data(keys.utf8))
        if !process.wait(timeout: deadline.timeIntervalSinceNow) { process.kill(SIGTERM) }
        process.waitUntilExit()
        return Screen(status: process.terminationStatus, transcript: process.standardOutput + process.standardError)
    }

    /// True when `stty -a`'s output in `transcript` has echo on (` echo `, not `-echo`).
    private func echoIsOn(_ transcript: String) -> Bool {
        transcript.split(whereSeparator: \.isWhitespace).contains("echo")
    }

    @Test("a token typed under a pseudo-terminal is not echoed, is kept, and echo is on again after")
    func typedTokenIsNotEchoed() async throws {
        let server = try await MastodonMock()
        defer { server.stop() }
        let sandbox = try Sandbox()
        let screen = try typed(
            ["accounts", "add", "mastodon", "--instance", server.baseURL.absoluteString], keys: MastodonMock.token + "\n",
            sandbox: sandbox)
        #expect(screen.status == 0, "\(screen.transcript)")
        #expect(!screen.transcript.contains(MastodonMock.token), "\(screen.transcript)")
        #expect(screen.transcript.contains("mastodon: token for @testuser kept in the tokens file"), "\(screen.transcript)")
        #expect(echoIsOn(screen.transcript), "\(screen.transcript)")
        let listed = try ShareRunner.share(["accounts", "list"], sandbox: sandbox)
        #expect(listed.output.hasPrefix("mastodon  the tokens file"), "\(listed)")
        // The instance was given, so posting goes there from now on.
        let configuration = try String(contentsOf: sandbox.directories.configurationFile, encoding: .utf8)
        #expect(configuration.contains("instance=http://127.0.0.1:\(server.peer.port)"), "\(configuration)")
    }

    @Test("Ctrl-C at the token prompt ends share with SIGINT and leaves echo on")
    func interruptRestoresEcho() throws {
        let sandbox = try Sandbox()
        let screen = try typed(
            ["accounts", "add", "mastodon", "--instance", "http://127.0.0.1:\((try Loopback.freePort()))"], keys: "half-typed\u{03}",
            sandbox: sandbox)
        #expect(screen.status == 130, "\(screen.transcript)")
        #expect(!screen.transcript.contains("half-typed"), "\(screen.transcript)")
        #expect(echoIsOn(screen.transcript), "\(screen.transcript)")
        #expect(try ShareRunner.share(["accounts", "list"], sandbox: sandbox).output.hasPrefix("no accounts"))
    }

    @Test("a token mastodon-mock refuses fails at once (78) and keeps nothing; a good one is kept and says whose it is")
    func checkedAgainstInstance() async throws {
        let server = try await MastodonMock()
        defer { server.stop() }
        let sandbox = try Sandbox()
        let instance = server.baseURL.absoluteString
        let refused = try ShareRunner.share(
            ["accounts", "add", "mastodon", "--instance", instance], sandbox: sandbox, input: "not_the_token\n")
        #expect(refused.status == 78, "\(refused)")
        #expect(refused.output.isEmpty)
        #expect(refused.error.split(separator: "\n").count == 1, "\(refused)")
        #expect(refused.error.hasPrefix("share: mastodon: the instance refused the token (401 "), "\(refused)")
        #expect(!refused.error.contains("not_the_token"))
        #expect(try ShareRunner.share(["accounts", "list"], sandbox: sandbox).output.hasPrefix("no accounts"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.directories.configurationFile.path))

        let kept = try ShareRunner.share(
            ["accounts", "add", "mastodon", "--instance", instance], sandbox: sandbox, input: MastodonMock.token + "\n")
        #expect(kept.status == 0, "\(kept)")
        #expect(kept.output.hasPrefix("mastodon: token for @testuser kept in the tokens file"), "\(kept)")
        #expect(!(kept.output + kept.error).contains(MastodonMock.token))
        // Configured now: no --instance needed, and posting uses the same instance.
        let again = try ShareRunner.share(["accounts", "add", "mastodon"], sandbox: sandbox, input: MastodonMock.token)
        #expect(again.status == 0, "\(again)")
        let posted = try ShareRunner.share(["--activity", "mastodon", "--text", "Checked token"], sandbox: sandbox)
        #expect(posted.status == 0, "\(posted)")
        #expect(try await server.statuses().count == 1)
    }

    @Test("without a terminal or a configured instance, accounts add mastodon asks for --instance (78); an unreachable one is 75; nothing kept")
    func instanceNeeded() throws {
        let sandbox = try Sandbox()
        let missing = try ShareRunner.share(["accounts", "add", "mastodon"], sandbox: sandbox, input: "abc\n")
        #expect(missing.status == 78, "\(missing)")
        #expect(missing.error.contains("pass --instance HOST"), "\(missing)")
        let closed = "http://127.0.0.1:\((try Loopback.freePort()))"
        let unreachable = try ShareRunner.share(["accounts", "add", "mastodon", "--instance", closed], sandbox: sandbox, input: "abc\n")
        #expect(unreachable.status == 75, "\(unreachable)")
        #expect(unreachable.error.contains("nothing kept"), "\(unreachable)")
        let elsewhere = try ShareRunner.share(["accounts", "add", "vimeo", "--instance", "mastodon.social"], sandbox: sandbox, input: "abc\n")
        #expect(elsewhere.status == 64, "\(elsewhere)")
        #expect(try ShareRunner.share(["accounts", "list"], sandbox: sandbox).output.hasPrefix("no accounts"))
    }

    @Test(
        "a malformed token is refused with 65 and the reason, before any instance is asked",
        arguments: [
            ("vimeo", "abc def\n", "has a space inside"),
            ("vimeo", "abc\ndef\n", "has more than one line"),
            ("vimeo", "\n", "is empty"),
            ("vimeo", "abc\u{07}def", "has a control character inside"),
            ("twitter", String(repeating: "A", count: 5000), "is 5000 characters long"),
            ("twitter", "tok\u{E9}n", "has characters a bearer token cannot have"),
            ("flickr", "key:secret:token", "must be CONSUMER_KEY:CONSUMER_SECRET:TOKEN:TOKEN_SECRET"),
            ("mastodon", "abc def", "has a space inside"),
        ])
    func malformed(service: String, token: String, reason: String) throws {
        let sandbox = try Sandbox()
        // A closed port: the format is checked before the instance is asked.
        let instance = ["--instance", "http://127.0.0.1:\((try Loopback.freePort()))"]
        let run = try ShareRunner.share(
            ["accounts", "add", service] + (service == "mastodon" ? instance : []), sandbox: sandbox, input: token)
        #expect(run.status == 65, "\(run)")
        #expect(run.error.contains("\(service): the token \(reason)"), "\(run)")
        #expect(try ShareRunner.share(["accounts", "list"], sandbox: sandbox).output.hasPrefix("no accounts"))
    }

    @Test("--token is an unknown option now (64), with the way to give a token instead")
    func tokenOptionIsGone() throws {
        let sandbox = try Sandbox()
        for arguments in [["--token", "abc"], ["--token=abc"]] {
            let run = try ShareRunner.share(["accounts", "add", "vimeo"] + arguments, sandbox: sandbox)
            #expect(run.status == 64, "\(run)")
            #expect(run.error.contains("unknown option '--token'"), "\(run)")
            #expect(run.error.contains("share accounts add SERVICE < token.txt"), "\(run)")
            #expect(!run.error.contains("abc"))
        }
        let help = try ShareRunner.share(["accounts", "--help"], sandbox: sandbox)
        #expect(help.status == 0)
        #expect(!help.output.contains("--token"))
        #expect(help.output.contains("--instance"))
        #expect(help.output.contains("--json"))
    }

    @Test("accounts list --json: one array of service, store and path, that Python's json reads; --pretty indents it")
    func listJSON() throws {
        let sandbox = try Sandbox()
        let empty = try ShareRunner.share(["accounts", "list", "--json"], sandbox: sandbox)
        #expect(empty.status == 0)
        #expect(empty.output == "[]\n")
        #expect(try ShareRunner.share(["accounts", "add", "vimeo"], sandbox: sandbox, input: "tok-vimeo").status == 0)
        #expect(try ShareRunner.share(["accounts", "add", "flickr"], sandbox: sandbox, input: "k:s:t:ts").status == 0)
        let listed = try ShareRunner.share(
            ["accounts", "list", "--json"], sandbox: sandbox, extra: ["SHARESHEET_TOKEN_WEIBO": "from-env"])
        #expect(listed.status == 0, "\(listed)")
        let path = sandbox.home.appendingPathComponent(".config/sharesheet/tokens").path
        #expect(
            listed.output == #"[{"path":null,"service":"weibo","store":"environment"},"#
                + #"{"path":"\#(path)","service":"flickr","store":"file"},"#
                + #"{"path":"\#(path)","service":"vimeo","store":"file"}]"# + "\n")
        #expect(!listed.output.contains("tok-vimeo") && !listed.output.contains("from-env"))
        let pretty = try ShareRunner.share(["accounts", "list", "--json", "--pretty"], sandbox: sandbox)
        #expect(pretty.status == 0, "\(pretty)")
        #expect(pretty.output.contains("\n  {\n    \"path\" : \"\(path)\","), "\(pretty)")
        #expect(try ShareRunner.share(["accounts", "list", "--pretty"], sandbox: sandbox).status == 64)
        let count = try Command.output(
            "python3", ["-c", "import json, sys; rows = json.load(sys.stdin); print(len(rows))"], input: .data(Data(listed.output.utf8)))
        #expect(count == "3\n")
    }
}
