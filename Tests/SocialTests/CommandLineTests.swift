import Foundation
import Testing

/// The built `share` binary, as a user runs it: accounts, posting to mastodon-mock, exit codes.
@Suite("share accounts and posting from the command line", .serialized)
struct CommandLineTests {
    struct Run {
        var status: Int32
        var output: String
        var error: String
    }

    static let binary: URL? = {
        if let path = ProcessInfo.processInfo.environment["SHARE_BINARY"] { return URL(fileURLWithPath: path) }
        var folders: [URL] = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        if let first = CommandLine.arguments.first { folders.append(URL(fileURLWithPath: first).deletingLastPathComponent()) }
        return folders.map { $0.appendingPathComponent("share") }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    private func share(
        _ arguments: [String], sandbox: Sandbox, input: String = "", extra: [String: String] = [:]
    ) throws -> Run {
        let binary = try #require(Self.binary, "the share executable was not found next to the test bundle")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = sandbox.home
        var environment = sandbox.environment
        environment["NO_COLOR"] = "1"
        environment["COLUMNS"] = "80"
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        let id = UUID().uuidString
        let inputURL = sandbox.home.appendingPathComponent(".in-\(id)")
        let outputURL = sandbox.home.appendingPathComponent(".out-\(id)")
        let errorURL = sandbox.home.appendingPathComponent(".err-\(id)")
        try Data(input.utf8).write(to: inputURL)
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        defer {
            for url in [inputURL, outputURL, errorURL] { try? FileManager.default.removeItem(at: url) }
        }
        process.standardInput = try FileHandle(forReadingFrom: inputURL)
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, output: try String(contentsOf: outputURL, encoding: .utf8),
            error: try String(contentsOf: errorURL, encoding: .utf8))
    }

    @Test("accounts add reads the token from standard input, keeps it 0600, and never prints it")
    func accounts() throws {
        let sandbox = try Sandbox()
        let added = try share(["accounts", "add", "mastodon"], sandbox: sandbox, input: "tok-ABC-123\n")
        #expect(added.status == 0, "\(added)")
        #expect(added.output.contains("mastodon: token kept in the tokens file"))
        let listed = try share(["accounts", "list"], sandbox: sandbox)
        #expect(listed.output.hasPrefix("mastodon  the tokens file"))
        for run in [added, listed] { #expect(!(run.output + run.error).contains("tok-ABC-123")) }
        let file = sandbox.home.appendingPathComponent(".config/sharesheet/tokens")
        let mode = (try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o600)
        let unknown = try share(["accounts", "add", "myspace"], sandbox: sandbox, input: "x")
        #expect(unknown.status == 64)
        let removed = try share(["accounts", "remove", "mastodon"], sandbox: sandbox)
        #expect(removed.status == 0)
        #expect(try share(["accounts", "remove", "mastodon"], sandbox: sandbox).status == 66)
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
        #expect(added.output.contains("token kept in the Secret Service"))
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

    @Test("share --activity mastodon posts text and a file named 'a b;c.png', prints the status URL")
    func post() async throws {
        let server = try await MastodonMock()
        defer { server.stop() }
        let sandbox = try Sandbox()
        try sandbox.writeConfiguration("[mastodon]\ninstance=\(server.baseURL.absoluteString)\n")
        #expect(try share(["accounts", "add", "mastodon", "--token", MastodonMock.token], sandbox: sandbox).status == 0)
        _ = try sandbox.file("a b;c.png", tinyPNG)
        let run = try share(["--activity", "mastodon", "--text", "From the command line", "a b;c.png"], sandbox: sandbox)
        #expect(run.status == 0, "\(run)")
        let statuses = try await server.statuses()
        #expect(statuses.count == 1)
        #expect((statuses.first?["media_attachments"] as? [Any])?.count == 1)
        #expect(run.output == (statuses.first?["url"] as? String ?? "?") + "\n")
        #expect(!(run.output + run.error).contains(MastodonMock.token))
    }

    @Test("network down exits 75; a missing file exits 66; Flickr without an account is explained (69)")
    func failures() throws {
        let sandbox = try Sandbox()
        try sandbox.writeConfiguration("[mastodon]\ninstance=http://127.0.0.1:\(PythonPeer.closedPort())\n")
        #expect(try share(["accounts", "add", "mastodon"], sandbox: sandbox, input: "t").status == 0)
        let offline = try share(["--activity", "mastodon", "--text", "hi"], sandbox: sandbox)
        #expect(offline.status == 75, "\(offline)")
        #expect(offline.error.contains("nothing was posted"))
        let missing = try share(["--activity", "mastodon", "missing.png"], sandbox: sandbox)
        #expect(missing.status == 66)
        _ = try sandbox.file("p.png", tinyPNG)
        let explained = try share(["--explain", "flickr", "p.png"], sandbox: sandbox)
        #expect(explained.status == 69)
        #expect(explained.output.contains("run share accounts add flickr"))
        let tencent = try share(["--explain", "tencent-weibo", "--text", "hi"], sandbox: sandbox)
        #expect(tencent.output.contains("the service closed in 2020"))
    }
}
