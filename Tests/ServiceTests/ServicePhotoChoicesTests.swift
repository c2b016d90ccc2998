// Choosing what is sent through the share service (SPEC §13): `sent-items`, `image-size` and
// the default that a photo leaving by mail leaves its location at home.
import Foundation
import LocalTestSupport
import Testing

@Suite("Share service: the items and photo size a caller chooses", .serialized)
struct ServicePhotoChoicesTests {
    @Test("sent-items [0, 2] and image-size small: two attachments, the photo 640×480 without GPS; the caller's file untouched")
    func sentItemsAndSize() async throws {
        let home = try TemporaryHome(prefix: "service-photos")
        defer { home.remove() }
        let bus = try ServiceBus.start(home: home)
        defer { bus.stop() }
        let peer = try SMTPPeer(in: home.root)
        defer { peer.stop() }
        try FileManager.default.createDirectory(at: home.configFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "[mail]\nsmtp=smtp://127.0.0.1:\(peer.port)\nstarttls=off\nfrom=ana@example.org\n"
            .write(to: home.configFile, atomically: true, encoding: .utf8)
        let photo = home.root.appendingPathComponent("harbour.jpg")
        try PhotoSamples.located(photo, width: 2000, height: 1500)
        let before = try Data(contentsOf: photo)
        let notes = try home.file("notes.pdf", Data("%PDF-1.4\nnotes\n".utf8))
        let left = try home.file("left-out.pdf", Data("%PDF-1.4\nleft out\n".utf8))

        let result = try await ServiceClient(bus: bus).share([
            "--file", photo.path + ":image/jpeg", "--file", left.path + ":application/pdf", "--file", notes.path + ":application/pdf",
            "--activity", "mail", "--interactive", "false", "--field", "to=bob@example.org",
            "--option-variant", "sent-items=[uint32 0, 2]", "--option-variant", "image-size='small'",
        ])
        #expect(result["response"] as? Int == 0, "\(result)\n\(bus.logTail())")
        let message = try #require(peer.received.first, "nothing was received")
        let attachments = try PhotoSamples.attachments(of: message, into: home.root.appendingPathComponent("received"))
        #expect(attachments.map(\.lastPathComponent) == ["harbour.jpg", "notes.pdf"])
        let received = try #require(attachments.first)
        #expect(try PhotoSamples.size(of: received) == (640, 480))
        #expect(try PhotoSamples.value("Exif.GPSInfo.GPSLatitude", in: received) == nil)
        #expect(try Data(contentsOf: photo) == before)
        // The service's private copies go with the request.
        #expect(try await filesLeft(under: bus.temporaryFolder).isEmpty)
    }

    @Test("sent-items naming an item that was not sent is refused with its position; image-size not a size, with the sizes")
    func wrongChoices() async throws {
        let home = try TemporaryHome(prefix: "service-photos")
        defer { home.remove() }
        let bus = try ServiceBus.start(home: home)
        defer { bus.stop() }
        let client = ServiceClient(bus: bus)
        let wrongItem = try await client.share([
            "--text", "hello", "--activity", "copy", "--interactive", "false", "--option-variant", "sent-items=[uint32 3]",
        ])
        #expect("\(wrongItem)".contains("sent-items: there is no item 3"), "\(wrongItem)")
        let wrongSize = try await client.share([
            "--text", "hello", "--activity", "copy", "--interactive", "false", "--option-variant", "image-size='huge'",
        ])
        #expect("\(wrongSize)".contains("image-size must be original, large, medium or small"), "\(wrongSize)")
    }
}
