// Progress on long work (#14): printing counts pages ("page 12 of 40") on a terminal, nothing
// through a pipe; --verbose says the rendering, the connection to CUPS and the job.
import Foundation
import LocalTestSupport
import ShareSheet
import Testing

@Suite("share --activity print: pages on a terminal, steps with --verbose")
struct PrintProgressTests {
    /// A text of about 300 pages: long enough to render that the line is drawn.
    private static func longText(in home: TemporaryFolder) throws -> URL {
        let words = ["lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit", "sed", "do"]
        var generator = SystemRandomNumberGenerator()
        let lines = (0..<12_000).map { _ in (0..<12).map { _ in words.randomElement(using: &generator)! }.joined(separator: " ") }
        let url = home.file("long.txt")
        try lines.joined(separator: "\n").write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test("a 300-page text printed to cupsd shows 'page N of M' under a pseudo-terminal; through a pipe none, and --verbose says each step")
    func pages() throws {
        let peers = try PrintPeers()
        defer { peers.stop() }
        try peers.addQueue("Office", makeDefault: true)
        let home = try TemporaryFolder("home")
        defer { home.remove() }
        let text = try Self.longText(in: home)
        let binary = try #require(Share.url, "the share executable was not found next to the test bundle")
        let environment = [
            "HOME": home.url.path, "XDG_CONFIG_HOME": home.file(".config").path, "XDG_DATA_HOME": home.file(".local/share").path,
            "CUPS_SERVER": peers.server, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "TERM": "xterm-256color", "NO_COLOR": "1",
        ]
        let arguments = [binary.path, "--activity", "print", "--set", "printer=Office", text.path]
        let line = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")

        let terminal = try Command.run("/usr/bin/script", ["-qec", line, "/dev/null"], environment: environment, timeout: 300)
        #expect(terminal.status == 0, "\(terminal)")
        #expect(
            terminal.standardOutput.range(of: #"Print +\[[#-]{20}\] +[0-9]+%  page [0-9]+ of [0-9]{3}"#, options: .regularExpression) != nil,
            "\(terminal)")

        let piped = try Command.run(binary.path, Array(arguments.dropFirst()) + ["--verbose"], environment: environment)
        #expect(piped.status == 0, "\(piped.standardError)")
        #expect(piped.standardError.range(of: #"page [0-9]+ of"#, options: .regularExpression) == nil, "\(piped.standardError)")
        #expect(!piped.standardError.contains("\u{1B}["), "\(piped.standardError)")
        let expected = [
            #"^share: Print: rendering [0-9]{3} page\(s\) of 'long' for printer Office$"#,
            #"^share: Print: connecting to CUPS at \#(NSRegularExpression.escapedPattern(for: peers.server)) for printer Office$"#,
            #"^share: Print: job [0-9]+ sent to Office \(1 document\(s\), [0-9]+ bytes\); waiting for it to complete$"#,
            #"^share: Print: job Office-[0-9]+ completed$"#,
            #"^share: result: print: completed, printed \(Office-[0-9]+\)$"#,
        ]
        let lines = piped.standardError.split(separator: "\n").map(String.init)
        var next = 0
        for said in lines where next < expected.count {
            if said.range(of: expected[next], options: .regularExpression) != nil { next += 1 }
        }
        #expect(next == expected.count, "missing, in order, \(expected.dropFirst(next).first ?? ""): \(piped.standardError)")
    }
}
