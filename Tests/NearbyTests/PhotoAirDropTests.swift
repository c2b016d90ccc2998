import Foundation
import LocalTestSupport
import Testing

/// A photo sent to a nearby device leaves without its location (SPEC §13): the receiver is the
/// LocalSend reference daemon in a network namespace of the test's own.
@Suite("Choosing what is sent: a photo by AirDrop", .serialized)
struct PhotoAirDropTests {
    @Test("a photo AirDropped to a LocalSend receiver arrives without GPS or serial, at its own size and orientation")
    func withoutLocation() throws {
        let folder = try TemporaryFolder.make("nearby-photo-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let pair = try NetworkPair()
        defer { pair.remove() }
        let daemon = try LocalSendPeer(namespace: pair.theirs, home: folder.appendingPathComponent("peer"))
        defer { daemon.stop() }
        let photo = folder.appendingPathComponent("beach.jpg")
        try PhotoSamples.located(photo, orientation: 6)
        let before = try Data(contentsOf: photo)

        let run = try ShareTool.run(
            ["--activity", "airdrop", "--to", daemon.fingerprint, photo.path], namespace: pair.ours,
            home: folder.appendingPathComponent("us"))
        #expect(run.status == 0, "\(run)")
        #expect(daemon.receivedFiles() == ["beach.jpg"], "\(daemon.process.output)")
        let received = daemon.downloads.appendingPathComponent("beach.jpg")
        #expect(try PhotoSamples.value("Exif.GPSInfo.GPSLatitude", in: received) == nil)
        #expect(try PhotoSamples.value("Exif.Photo.BodySerialNumber", in: received) == nil)
        #expect(try PhotoSamples.value("Exif.Image.Orientation", in: received) == "6")
        #expect(try PhotoSamples.size(of: received) == (1200, 900))
        #expect(try Data(contentsOf: photo) == before)
    }
}
