// Progress on long work (#14): a large mail says how much is sent, how fast and how long is left
// on a terminal, and says nothing of it through a pipe.
import Foundation
import LocalTestSupport
import Testing

@Suite("Mail: progress lines on a terminal")
struct ProgressLineTests {
    @Test("a 50 MB mail to aiosmtpd shows size, rate and time left under a pseudo-terminal, none with --quiet, and none through a pipe")
    func progressOnATerminalOnly() throws {
        let home = try TestHome()
        let peer = try SMTPPeer(in: home.folder)
        defer { peer.stop() }
        try home.configure("[mail]\nsmtp=smtp://127.0.0.1:\(peer.port)\nstarttls=off\nfrom=ana@example.org\n")
        let big = try home.randomFile("big.bin", size: 50_000_000)
        let binary = try #require(Share.url, "the share executable was not found next to the test bundle")
        let arguments = ["--activity", "mail", "--to", "bob@example.com", big.path]
        let quoted = ([binary.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        // script(1) runs the command on a new pseudo-terminal and copies what it drew to its output.
        let terminal = try Command.run(
            "/usr/bin/script", ["-qec", quoted.joined(separator: " "), "/dev/null"],
            environment: home.environment.merging(["TERM": "xterm-256color"]) { $1 }, in: home.folder)
        #expect(terminal.status == 0, "\(terminal)")
        let drawn = terminal.standardOutput
        #expect(drawn.range(of: #"Mail +\[[#-]+\] +[0-9]+%  [0-9.]+ [kM]?B of [0-9]+ MB"#, options: .regularExpression) != nil, "\(drawn)")
        #expect(drawn.range(of: #"[0-9.]+ [kM]?B/s  [0-9]+( min [0-9]+)? s left"#, options: .regularExpression) != nil, "\(drawn)")
        #expect(peer.received.count == 1)

        let quiet = try Command.run(
            "/usr/bin/script", ["-qec", (quoted + ["--quiet"]).joined(separator: " "), "/dev/null"],
            environment: home.environment.merging(["TERM": "xterm-256color"]) { $1 }, in: home.folder)
        #expect(quiet.status == 0 && !quiet.standardOutput.contains(" MB of "), "--quiet: \(quiet)")

        let piped = try Run.share(arguments, home: home, extraEnvironment: ["TERM": "xterm-256color"])
        #expect(piped.status == 0, "\(piped)")
        #expect(!piped.standardError.contains(" MB of "), "\(piped.standardError)")
        #expect(!piped.standardError.contains("\u{1B}["), "no terminal controls when standard error is not a terminal")
    }
}
