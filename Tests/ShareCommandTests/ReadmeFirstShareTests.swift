import Foundation
import LocalTestSupport
import Testing

/// The README's "Your first share" runs as written (#23): each line of its block, in a copy of
/// `Examples/Samples`, in a home of its own. Without a terminal the two lines that show the
/// sheet end with 64 (there is no sheet to answer, as the README says); every other line ends
/// with 0. A test in tmux shows the sheet itself (`PipedInputSheetTests`).
@Suite("the README's first share")
struct ReadmeFirstShareTests {
    /// The command lines of the block, without their comments.
    private static func lines() throws -> [String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "## Your first share"))
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
}
