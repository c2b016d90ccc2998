import Foundation
import LocalTestSupport
import Testing

@testable import Contacts

/// A contacts folder that holds what no card is (#28): `share contacts list` must end, warn about
/// each such file by name, and still list the good cards.
@Suite("A hostile contacts folder: FIFOs, devices and huge files are skipped")
struct HostileFolderTests {
    @Test("a FIFO, a link to /dev/zero and a file over the size limit are skipped with a warning each")
    func skipped() async throws {
        let folder = try TemporaryFolder("contacts-tests")
        defer { folder.remove() }
        let share = ShareRun(folder: folder.url)
        let book = share.defaultContacts
        try FileManager.default.createDirectory(at: book, withIntermediateDirectories: true)
        try Data(Cards.simple(uid: "ana", name: "Ana Lima", email: "ana@example.com").utf8)
            .write(to: book.appendingPathComponent("ana.vcf"))
        // No writer ever opens it: reading it without care blocks forever.
        let fifo = book.appendingPathComponent("pipe.vcf")
        try #require(mkfifo(fifo.path, 0o600) == 0)
        // Endless zeros without a line break.
        let zero = book.appendingPathComponent("zero.vcf")
        try FileManager.default.createSymbolicLink(atPath: zero.path, withDestinationPath: "/dev/zero")
        // A regular file just over the limit (sparse: it costs no disk).
        let huge = book.appendingPathComponent("huge.vcf")
        let descriptor = open(huge.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        try #require(descriptor >= 0)
        #expect(ftruncate(descriptor, off_t(CardOpening.sizeLimit + 1)) == 0)
        close(descriptor)

        let binary = try #require(Share.url, "the share executable was not found next to the test bundle")
        // A hang is caught by the timeout (the run is killed and the test fails); it is not a
        // measure of speed.
        let list = try await Command.run(
            binary.path, ["contacts", "list"], environment: share.environment, in: folder.url, timeout: 10)
        #expect(list.status == 0, "\(list)")
        #expect(list.standardOutput == "Ana Lima  ana@example.com  -  ana.vcf\n", "\(list)")
        #expect(
            list.standardError
                == "share: warning: \(huge.path): skipped, larger than 64 MiB, more than any one card holds\n"
                + "share: warning: \(fifo.path): skipped, not a regular file (a FIFO)\n"
                + "share: warning: \(zero.path): skipped, not a regular file (a character device)\n",
            "\(list)")
    }
}
