// A folder given to AirDrop is refused at once, in one line naming it, with 66 (no input):
// the item resolver takes files, not folders, for every activity, so nothing is discovered or
// offered to a receiver first.
import Foundation
import LocalTestSupport
import Testing

@Suite("share --activity airdrop with a folder")
final class AirDropFolderTests {
    let folder: URL

    init() throws {
        folder = try TemporaryFolder.make("share-airdrop-folder")
        let photos = folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try Data("not really a photo\n".utf8).write(to: photos.appendingPathComponent("a.jpg"))
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    @Test("refused with one line naming the folder, exit 66, before any device is looked for")
    func folderIsRefused() async throws {
        // An address nothing listens on: were the folder not refused first, the share would be queued for it (75).
        let port = try Loopback.freePort()
        let run = try await ShareBinary.run(["--activity", "airdrop", "--to", "127.0.0.1:\(port)", "photos"], in: folder, timeout: 30)
        #expect(run.status == 66, "\(run)")
        #expect(run.standardError.hasSuffix("photos: is a folder; give the files in it instead (photos/*)\n"), "\(run.standardError)")
        #expect(run.standardError.split(separator: "\n").count == 1, "\(run.standardError)")
    }
}
