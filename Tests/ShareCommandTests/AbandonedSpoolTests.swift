import Foundation
import LocalTestSupport
import Testing

/// Standard input's spool folder after a kill (#28): a share killed while it held `-` in its
/// private folder cannot remove it; the next share that spools does, once the PID in the
/// folder's name is no running process.
@Suite("share -: spool folders a killed share left")
struct AbandonedSpoolTests {
    @Test("a dead share's spool folder goes at the next spool; a running one's stays; old names keep the age rule")
    func deadWriterSpoolFolders() async throws {
        let fixture = try CommandFolder([:])
        let temporary = fixture.url.appendingPathComponent("tmp")
        let dead = "sharesheet-spool-\(try Command.deadPID()).Ab3dE9"
        let alive = "sharesheet-spool-\(getpid()).Fg5hI7"
        // Names without a PID (before #28) are judged by age: gone after 36 hours untouched.
        let oldStale = "sharesheet-spool-Jk1lM2"
        let oldFresh = "sharesheet-spool-No4pQ6"
        for name in [dead, alive, oldStale, oldFresh] {
            let folder = temporary.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("half of what was piped".utf8).write(to: folder.appendingPathComponent("stdin.txt"))
        }
        let past = Date().addingTimeInterval(-37 * 3600)
        try FileManager.default.setAttributes(
            [.modificationDate: past], ofItemAtPath: temporary.appendingPathComponent(oldStale).path)

        let run = try await ShareBinary.run(
            ["--list", "-"], in: fixture.url, input: .text("see you at 6\n"), environment: ["TMPDIR": temporary.path])
        #expect(run.status == 0, "\(run)")
        #expect(run.standardOutput.contains("  -  text\n"), "\(run)")
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary.path).sorted()
        #expect(left == [alive, oldFresh].sorted(), "\(left)")
    }
}
