// --verbose and `share outbox flush`'s progress (#14).
import Foundation
import LocalTestSupport
import Testing

@Suite("Mail: --verbose steps and outbox flush progress")
struct VerboseAndFlushProgressTests {
    @Test("--verbose says the item, the activity, the spool file, the server and the result; without it none of that")
    func verboseSteps() throws {
        let home = try TestHome()
        let peer = try SMTPPeer(in: home.folder)
        defer { peer.stop() }
        try home.configure("[mail]\nsmtp=smtp://127.0.0.1:\(peer.port)\nstarttls=off\nfrom=ana@example.org\n")
        let file = try home.randomFile("report.bin", size: 300_000)
        let arguments = ["--activity", "mail", "--to", "bob@example.com", file.path]
        let verbose = try Run.share(arguments + ["--verbose"], home: home)
        #expect(verbose.status == 0, "\(verbose)")
        let lines = verbose.standardError.split(separator: "\n").map(String.init)
        let outbox = home.outbox.path
        let expected = [
            #"^share: item .*report\.bin: .*, 300 kB$"#,
            #"^share: activity: mail \(com\.apple\.UIKit\.activity\.Mail\), given with --activity$"#,
            "^share: Mail: spooled to " + NSRegularExpression.escapedPattern(for: outbox) + #"/new/[^ ]+ \([0-9]+ bytes\)$"#,
            #"^share: Mail: connecting to smtp://127\.0\.0\.1:\#(peer.port) to send [^ ]+ \([0-9]+ bytes\) from <ana@example\.org> to <bob@example\.com>$"#,
            #"^share: Mail: 127\.0\.0\.1:\#(peer.port) accepted [^ ]+; removed it from the outbox$"#,
            #"^share: result: mail: completed, sent \(smtp://127\.0\.0\.1:\#(peer.port)\)$"#,
        ]
        var next = 0
        for line in lines where next < expected.count {
            if line.range(of: expected[next], options: .regularExpression) != nil { next += 1 }
        }
        #expect(next == expected.count, "missing, in order, \(expected.dropFirst(next).first ?? ""): \(verbose.standardError)")
        #expect(!verbose.standardError.contains("\u{1B}["), "no terminal controls on a pipe")
        #expect(peer.received.count == 1)

        let plain = try Run.share(arguments, home: home)
        #expect(plain.status == 0, "\(plain)")
        #expect(plain.standardError.isEmpty, "\(plain.standardError)")
    }

    @Test("outbox flush shows which message of how many and its bytes under a pseudo-terminal; nothing with --quiet or through a pipe; --verbose says each")
    func flushProgress() throws {
        let home = try TestHome()
        // Queued first: no server is set up.
        let files = try (1...2).map { try home.randomFile("part\($0).bin", size: 30_000_000) }
        for file in files {
            let queued = try Run.share(["--activity", "mail", "--to", "bob@example.com", file.path], home: home)
            #expect(queued.status == 75, "\(queued)")  // no server: queued
        }
        #expect(home.outboxFiles("new").count == 2)
        let peer = try SMTPPeer(in: home.folder)
        defer { peer.stop() }
        let binary = try #require(Share.url, "the share executable was not found next to the test bundle")
        let arguments = ["outbox", "flush", "--set", "smtp=smtp://127.0.0.1:\(peer.port)", "--set", "starttls=off"]
        let quoted = ([binary.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let terminal = try Command.run(
            "/usr/bin/script", ["-qec", quoted.joined(separator: " "), "/dev/null"],
            environment: home.environment.merging(["TERM": "xterm-256color"]) { $1 }, in: home.folder)
        #expect(terminal.status == 0, "\(terminal)")
        let drawn = terminal.standardOutput
        #expect(
            drawn.range(of: #"Mail [12] of 2 +\[[#-]+\] +[0-9]+%  [0-9.]+ [kM]?B of [0-9]+ MB"#, options: .regularExpression) != nil,
            "\(drawn)")
        #expect(peer.received.count == 2)
        #expect(home.outboxFiles("new").isEmpty)

        // Queue two more and flush through a pipe, with --quiet on a terminal, and --verbose.
        for file in files {
            _ = try Run.share(["--activity", "mail", "--to", "bob@example.com", file.path], home: home)
        }
        let quiet = try Command.run(
            "/usr/bin/script", ["-qec", (quoted + ["--quiet"]).joined(separator: " "), "/dev/null"],
            environment: home.environment.merging(["TERM": "xterm-256color"]) { $1 }, in: home.folder)
        #expect(quiet.status == 0 && !quiet.standardOutput.contains(" MB of "), "--quiet: \(quiet)")
        for file in files {
            _ = try Run.share(["--activity", "mail", "--to", "bob@example.com", file.path], home: home)
        }
        let piped = try Run.share(arguments + ["--verbose"], home: home, extraEnvironment: ["TERM": "xterm-256color"])
        #expect(piped.status == 0, "\(piped)")
        #expect(!piped.standardError.contains(" MB of ") && !piped.standardError.contains("\u{1B}["), "\(piped.standardError)")
        #expect(piped.standardError.contains("share: Mail: 2 queued message(s) in \(home.outbox.path)\n"), "\(piped.standardError)")
        #expect(piped.standardError.components(separatedBy: "share: Mail: connecting to smtp://127.0.0.1:\(peer.port) to send ").count == 3)
        #expect(peer.received.count == 6)
    }
}
