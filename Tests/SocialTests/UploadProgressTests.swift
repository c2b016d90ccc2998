// Progress on long work (#14): an upload to a posting service says how much is sent on a
// terminal, and says nothing of it through a pipe.
import Foundation
import LocalTestSupport
import Testing

@testable import Social

@Suite("Posting: upload progress on a terminal", .serialized)
struct UploadProgressTests {
    @Test("a 32 MB image to mastodon-mock draws a progress line in bytes under a pseudo-terminal, and none through a pipe")
    func uploadProgressOnATerminalOnly() async throws {
        let sandbox = try Sandbox()
        let server = try await MastodonMock()
        defer { server.stop() }
        try sandbox.writeConfiguration("[mastodon]\ninstance=\(server.baseURL.absoluteString)\n")
        try sandbox.accounts.save(MastodonMock.token, for: .mastodon)
        let image = sandbox.home.appendingPathComponent("large picture.png")
        try Self.writePNGSizedFile(image, size: 32_000_000)
        let binary = try #require(Share.url, "the share executable was not found next to the test bundle")
        let arguments = ["--activity", "mastodon", "--text", "A large picture", image.path]

        // script(1) runs the command on a new pseudo-terminal and copies what it drew to its output.
        let quoted = ([binary.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let terminal = try await Command.run(
            "/usr/bin/script", ["-qec", quoted.joined(separator: " "), "/dev/null"],
            environment: ShareRunner.environment(sandbox, extra: ["TERM": "xterm-256color"]), in: sandbox.home, timeout: 300)
        #expect(terminal.status == 0, "\(terminal)")
        #expect(
            terminal.standardOutput.range(of: #"\[[#-]+\] +[0-9]+%  [0-9.]+ [kM]?B of 32 MB"#, options: .regularExpression) != nil,
            "\(terminal)")
        let statuses = try await server.statuses()
        #expect(statuses.count == 1)
        let media = statuses.first?["media_attachments"] as? [[String: Any]]
        #expect(media?.count == 1)

        let piped = try ShareRunner.share(arguments, sandbox: sandbox, extra: ["TERM": "xterm-256color"])
        #expect(piped.status == 0, "\(piped)")
        #expect(!piped.error.contains(" MB of "), "\(piped.error)")
        #expect(!piped.error.contains("\u{1B}["), "no terminal controls when standard error is not a terminal")
    }

    /// A PNG signature followed by `size` bytes in all (a sparse file: the upload reads every byte).
    private static func writePNGSizedFile(_ url: URL, size: Int) throws {
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]).write(to: url)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.truncate(atOffset: UInt64(size))
    }
}
