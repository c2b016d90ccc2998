import Foundation
import LocalTestSupport
import Testing

/// What a photo carries when it leaves by mail (SPEC §13), read by the receiver's own tools:
/// the attachments as aiosmtpd received them, their metadata read with exiv2 and their size
/// with vipsheader.
@Suite("Choosing what is sent: photos by mail")
struct PhotoMailTests {
    /// Mails `files` with `options` through a loopback server; the attachments as received.
    private func mail(_ files: [URL], options: [String] = [], home: TestHome) throws -> (run: Command.Result, attachments: [URL]) {
        let peer = try SMTPPeer(in: home.folder)
        defer { peer.stop() }
        try home.configure("[mail]\nsmtp=smtp://127.0.0.1:\(peer.port)\nstarttls=off\nfrom=ana@example.org\n")
        // A temporary folder of the test's own, to see that the share leaves nothing in it.
        let temporary = home.folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let run = try Run.share(
            ["--activity", "mail", "--to", "bob@example.com", "--subject", "Photos"] + options + files.map(\.path), home: home,
            extraEnvironment: ["TMPDIR": temporary.path])
        guard let message = peer.received.first else { return (run, []) }
        let folder = home.folder.appendingPathComponent("received-\(UUID().uuidString)")
        return (run, try PhotoSamples.attachments(of: message, into: folder))
    }

    @Test("a photo mailed loses its location and serial, keeps its orientation and image data; the original is untouched")
    func locationRemoved() throws {
        let home = try TestHome()
        let photo = home.folder.appendingPathComponent("IMG 0001.jpg")
        try PhotoSamples.located(photo, orientation: 6)
        let before = try Data(contentsOf: photo)
        let (run, attachments) = try mail([photo], home: home)
        #expect(run.status == 0, "\(run)")
        let received = try #require(attachments.first)
        #expect(received.lastPathComponent == "IMG 0001.jpg")
        #expect(try PhotoSamples.value("Exif.GPSInfo.GPSLatitude", in: received) == nil)
        #expect(try PhotoSamples.value("Exif.Photo.BodySerialNumber", in: received) == nil)
        // Shown the right way up: the orientation tag is there, over the same pixels.
        #expect(try PhotoSamples.value("Exif.Image.Orientation", in: received) == "6")
        #expect(try PhotoSamples.scanData(received) == (try PhotoSamples.scanData(photo)), "the image data was re-encoded")
        #expect(try Data(contentsOf: photo) == before, "the person's file was changed")
        // Nothing is left behind in the temporary folder.
        let left = try FileManager.default.contentsOfDirectory(atPath: home.folder.appendingPathComponent("tmp").path)
        #expect(left.filter { $0.hasPrefix("sharesheet-photos") }.isEmpty, "\(left)")
    }

    @Test("--keep-location mails the location and the serial")
    func keepLocation() throws {
        let home = try TestHome()
        let photo = home.folder.appendingPathComponent("kept.jpg")
        try PhotoSamples.located(photo, orientation: 1)
        let (run, attachments) = try mail([photo], options: ["--keep-location"], home: home)
        #expect(run.status == 0, "\(run)")
        let received = try #require(attachments.first)
        #expect(try PhotoSamples.value("Exif.GPSInfo.GPSLatitude", in: received) != nil)
        #expect(try PhotoSamples.value("Exif.Photo.BodySerialNumber", in: received) == "012345678")
        #expect(try Data(contentsOf: received) == (try Data(contentsOf: photo)))
    }

    @Test("--size small turns a 4000×3000 photo into a 640×480 attachment without location")
    func smallSize() throws {
        let home = try TestHome()
        let photo = home.folder.appendingPathComponent("big.jpg")
        try PhotoSamples.located(photo, width: 4000, height: 3000)
        let (run, attachments) = try mail([photo], options: ["--size", "small"], home: home)
        #expect(run.status == 0, "\(run)")
        let received = try #require(attachments.first)
        #expect(try PhotoSamples.size(of: received) == (640, 480))
        #expect(try PhotoSamples.value("Exif.GPSInfo.GPSLatitude", in: received) == nil)
    }

    @Test("[mail] image-size=medium is the size when --size is not given; a turned photo is turned upright")
    func configuredSize() throws {
        let home = try TestHome()
        let photo = home.folder.appendingPathComponent("turned.jpg")
        try PhotoSamples.located(photo, width: 2000, height: 1500, orientation: 6)
        let peer = try SMTPPeer(in: home.folder)
        defer { peer.stop() }
        try home.configure("[mail]\nsmtp=smtp://127.0.0.1:\(peer.port)\nstarttls=off\nfrom=ana@example.org\nimage-size=medium\n")
        let run = try Run.share(["--activity", "mail", "--to", "bob@example.com", photo.path], home: home)
        #expect(run.status == 0, "\(run)")
        let message = try #require(peer.received.first)
        let received = try #require(try PhotoSamples.attachments(of: message, into: home.folder.appendingPathComponent("in")).first)
        // Resized pixels are stored upright: 768×1024, and no orientation that would turn them again.
        #expect(try PhotoSamples.size(of: received) == (768, 1024))
        #expect([nil, "1"].contains(try PhotoSamples.value("Exif.Image.Orientation", in: received)))
    }

    @Test("a WebP photo arrives as a JPEG the receiver can read")
    func webpBecomesJPEG() throws {
        let home = try TestHome()
        let jpeg = home.folder.appendingPathComponent("source.jpg")
        try PhotoSamples.located(jpeg, width: 800, height: 600)
        let webp = home.folder.appendingPathComponent("holiday.webp")
        try PhotoSamples.convert(jpeg, to: webp)
        let (run, attachments) = try mail([webp], home: home)
        #expect(run.status == 0, "\(run)")
        let received = try #require(attachments.first)
        #expect(received.lastPathComponent == "holiday.jpg")
        #expect(try Data(contentsOf: received).prefix(3) == Data([0xFF, 0xD8, 0xFF]))
        #expect(try PhotoSamples.size(of: received) == (800, 600))
    }

    @Test("--only 1,3 sends the first and third of three items")
    func onlySome() throws {
        let home = try TestHome()
        let files = try ["one.pdf", "two.pdf", "three.pdf"].map { try home.randomFile($0, size: 2000) }
        let (run, attachments) = try mail(files, options: ["--only", "1,3"], home: home)
        #expect(run.status == 0, "\(run)")
        #expect(attachments.map(\.lastPathComponent) == ["one.pdf", "three.pdf"])
    }

    @Test("--only naming an item that is not there is a usage error, and nothing is sent")
    func onlyWrong() throws {
        let home = try TestHome()
        let file = try home.randomFile("one.pdf", size: 100)
        let (run, attachments) = try mail([file], options: ["--only", "2"], home: home)
        #expect(run.status == 64, "\(run)")
        #expect(run.standardError.contains("--only: there is no item 2"), "\(run)")
        #expect(attachments.isEmpty)
    }

    @Test("saved to Photos, the photo keeps everything: the same bytes")
    func savedKeepsAll() throws {
        let home = try TestHome()
        let photo = home.folder.appendingPathComponent("keep.jpg")
        try PhotoSamples.located(photo, orientation: 6)
        let run = try Run.share(["--activity", "photos", photo.path], home: home)
        #expect(run.status == 0, "\(run)")
        let saved = try #require(
            FileManager.default.enumerator(atPath: home.home.path)?.compactMap { $0 as? String }
                .first { $0.hasSuffix("keep.jpg") })
        #expect(try Data(contentsOf: home.home.appendingPathComponent(saved)) == (try Data(contentsOf: photo)))
    }

    @Test("a photo in a text message that waits in the outbox: its copy, without location, is kept beside the message")
    func queuedMessageKeepsItsPhoto() throws {
        let home = try TestHome()
        let photo = home.folder.appendingPathComponent("dog.jpg")
        try PhotoSamples.located(photo)
        let run = try Run.share(["--activity", "message", "--to", "+15551234567", "--text", "Look", photo.path], home: home)
        #expect(run.status == 75, "\(run)")
        let messages = home.dataHome.appendingPathComponent("sharesheet/Messages")
        let json = try #require(try FileManager.default.contentsOfDirectory(atPath: messages.path).first { $0.hasSuffix(".json") })
        let stored = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: messages.appendingPathComponent(json))) as? [String: Any])
        let attachment = try #require((stored["attachments"] as? [String])?.first)
        let kept = URL(string: attachment).map { $0.isFileURL ? $0 : URL(fileURLWithPath: attachment) } ?? URL(fileURLWithPath: attachment)
        #expect(kept.path.hasPrefix(messages.path + "/"), "\(attachment)")
        #expect(kept.lastPathComponent == "dog.jpg")
        #expect(try PhotoSamples.value("Exif.GPSInfo.GPSLatitude", in: kept) == nil)
        #expect(FileManager.default.fileExists(atPath: photo.path))
    }
}
