import Foundation
import LocalTestSupport
import ShareSheet
import Testing

@testable import ShareCommand

/// One exit-status table (SPEC §4): declared once (`ExitStatuses`), printed by `--help` and the
/// man page, copied into the README, and what the command really returns.
@Suite("share, exit statuses as documented")
struct ExitCodeTests {
    /// The README's rows under its "| exit status | meaning |" header.
    private static func readmeRows() throws -> [(status: Int32, meaning: String)] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let header = try #require(readme.range(of: "| exit status | meaning |\n"))
        var rows: [(Int32, String)] = []
        for line in readme[header.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("|") else { break }
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 2, let status = Int32(cells[0]) else { continue }  // the |---| line
            rows.append((status, cells[1]))
        }
        return rows
    }

    @Test func theReadmeTableIsTheDeclaredOne() throws {
        let rows = try Self.readmeRows()
        #expect(rows.map(\.status) == ExitStatuses.all.map(\.status))
        #expect(rows.map(\.meaning) == ExitStatuses.all.map(\.meaning))
    }

    @Test func everyKindOfFailureHasItsRow() {
        for kind in ShareError.Kind.allCases {
            #expect(ExitStatuses.all.filter { $0.kind == kind }.count == 1, "\(kind)")
        }
        #expect(ExitStatuses.status(of: .configuration) == 78)
        #expect(ExitStatuses.status(of: .temporaryFailure) == 75)
    }

    @Test func helpAndTheManPagePrintTheTable() async throws {
        let folder = try TemporaryFolder.make("share-exit-codes")
        defer { TemporaryFolder(existing: folder).remove() }
        let help = try await ShareBinary.run(["--help"], in: folder)
        #expect(help.status == 0, "\(help)")
        #expect(help.standardOutput.contains("Exit status:\n" + ExitStatuses.helpLines + "\n"), "\(help.standardOutput)")
        for entry in ExitStatuses.all {
            let row = help.standardOutput.split(separator: "\n").first { $0.hasPrefix("  \(entry.status) ") }
            #expect(row?.hasSuffix(entry.meaning) == true, "--help: \(entry.status)")
        }
        let page = try await ShareBinary.run(["man-page"], in: folder)
        #expect(page.status == 0, "\(page)")
        let section = try #require(page.standardOutput.range(of: ".SH EXIT STATUS\n"))
        let end = try #require(page.standardOutput.range(of: ".SH ", range: section.upperBound..<page.standardOutput.endIndex))
        #expect(String(page.standardOutput[section.upperBound..<end.lowerBound]) == ExitStatuses.manPageLines)
    }
}
