import Foundation
import LocalTestSupport
import Testing

/// The README's examples run as written (#23): each line of "Your first share", in a copy of
/// `Examples/Samples`, and the examples of "The `share` command" that need no peer, in a home
/// of their own. Without a terminal the lines that show the sheet end with 64 (there is no sheet
/// to answer, as the README says). A test in tmux shows the sheet itself (`PipedInputSheetTests`).
@Suite("the README's first share")
struct ReadmeFirstShareTests {
    /// The command lines of the first `sh` block after `heading`, without their comments.
    private static func lines(after heading: String = "## Your first share") throws -> [String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: heading))
        let start = try #require(readme.range(of: "```sh\n", range: section.upperBound..<readme.endIndex))
        let end = try #require(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
        return readme[start.upperBound..<end.lowerBound].split(separator: "\n").map { line in
            let command = line.range(of: "  #").map { line[..<$0.lowerBound] } ?? line[...]
            return command.trimmingCharacters(in: .whitespaces)
        }
    }

    @Test func everyLineRunsAsWritten() async throws {
        let folder = try TemporaryFolder.make("share-readme")
        defer { TemporaryFolder(existing: folder).remove() }
        let samples = folder.appendingPathComponent("Examples/Samples")
        try FileManager.default.createDirectory(at: samples.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Sample.url("notes.txt").deletingLastPathComponent(), to: samples)
        let binary = try #require(Share.url)
        let lines = try Self.lines()
        #expect(lines.first == "cd Examples/Samples")
        var script = "share() { \(ShareBinary.shellQuoted(binary.path)) \"$@\"; }\n"
        for line in lines {
            // Each line's exit status, named by the line, on a line of its own (`share paste`
            // into a pipe ends where the copied bytes end).
            script += "\(line); printf '\\nSTATUS %s %s\\n' \"$?\" \(ShareBinary.shellQuoted(line))\n"
        }
        let run = try await ShareBinary.run(["-c", script], in: folder, program: "/bin/bash")
        let statuses = run.standardOutput.split(separator: "\n").filter { $0.hasPrefix("STATUS ") }
        #expect(statuses.count == lines.count, "\(run)")
        for status in statuses {
            let words = status.split(separator: " ", maxSplits: 2)
            let showsTheSheet = !status.contains("--") && !status.contains("share paste") && status.contains("share")
            let expected = showsTheSheet ? "64" : "0"
            #expect(words[1] == Substring(expected), "\(status)\n\(run.standardError)")
        }
    }

    /// The examples of the command's section that reach no peer, no network and no other
    /// program, with the status each ends with in an empty home (run in this order: the
    /// contact is made before it is shown, the copy before the paste). The others need a mail
    /// server, an account, a device nearby or a desktop to open things on.
    private static let runnableExamples: [(line: String, status: Int32)] = [
        ("share report.pdf", 64),
        ("share --list photo.jpg https://swift.org", 0),
        ("share --list --json notes.txt", 0),
        ("share --explain reading-list notes.txt", 69),
        ("share --activity mail --to ana@example.com --subject \"Q3\" report.pdf", 75),
        ("echo \"see you at 6\" | share --activity message --to +15551234567 -", 75),
        ("share --activity copy --json --text \"hello\"", 0),
        ("share --explain open-in report.pdf", 69),
        ("share outbox list", 0),
        ("share --activity contact --to ana@example.com me.jpg", 0),
        ("share --activity contact --set contact=\"Ana Lima\" me.jpg", 0),
        ("share contacts list", 0),
        ("share contacts show ana@example.com", 0),
        ("share --activity copy photo.jpg", 0),
        ("share --activity print report.txt photo.jpg", 0),
        ("share paste", 0),
        ("share paste --types", 0),
        ("share --activity reading-list --subject \"Swift\" https://swift.org", 0),
        ("share reading-list list", 0),
        ("share reading-list mark-read https://swift.org", 0),
        ("share reading-list export > reading-list.html", 0),
        ("share accounts list", 0),
    ]

    @Test func theCommandsExamplesRunAsWritten() async throws {
        let lines = try Self.lines(after: "## The `share` command")
        for example in Self.runnableExamples {
            #expect(lines.contains(example.line), "the README no longer shows: \(example.line)")
        }
        let folder = try TemporaryFolder.make("share-readme-examples")
        defer { TemporaryFolder(existing: folder).remove() }
        try FileManager.default.copyItem(at: Sample.url("notes.txt"), to: folder.appendingPathComponent("notes.txt"))
        try FileManager.default.copyItem(at: Sample.url("notes.txt"), to: folder.appendingPathComponent("report.txt"))
        // A one-page PDF, and a JPEG of it (pdftoppm, from poppler-utils).
        let pdf = "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n"
            + "3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"
        try Data(pdf.utf8).write(to: folder.appendingPathComponent("report.pdf"))
        let jpeg = try await ShareBinary.run(
            ["-jpeg", "-r", "20", "-singlefile", "report.pdf", "photo"], in: folder, program: "/usr/bin/pdftoppm")
        #expect(jpeg.status == 0, "\(jpeg)")
        try FileManager.default.copyItem(
            at: folder.appendingPathComponent("photo.jpg"), to: folder.appendingPathComponent("me.jpg"))
        let binary = try #require(Share.url)
        var script = "share() { \(ShareBinary.shellQuoted(binary.path)) \"$@\"; }\n"
        for example in Self.runnableExamples {
            script += "\(example.line) > /dev/null; printf 'STATUS %s %s\\n' \"$?\" \(ShareBinary.shellQuoted(example.line))\n"
        }
        // No CUPS here: Print saves its PDF.
        let run = try await ShareBinary.run(
            ["-c", script], in: folder, program: "/bin/bash", environment: ["CUPS_SERVER": "127.0.0.1:\(try Loopback.freePort())"])
        let statuses = run.standardOutput.split(separator: "\n").filter { $0.hasPrefix("STATUS ") }
        #expect(statuses.count == Self.runnableExamples.count, "\(run)")
        for (status, example) in zip(statuses, Self.runnableExamples) {
            #expect(status == "STATUS \(example.status) \(example.line)", "\(run.standardError)")
        }
    }
}
