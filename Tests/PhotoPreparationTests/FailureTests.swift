import Foundation
import LocalTestSupport
import PhotoPreparation
import ShareSheet
import Testing

/// What cannot be prepared fails with a message naming the file, and leaves nothing behind.
@Suite("Photo preparation failures")
struct FailureTests {
    func expectBadData(_ source: URL, _ options: PhotoOptions, out: URL) throws {
        #expect {
            _ = try PhotoPreparation.prepare(source, options: options, into: out)
        } throws: { error in
            guard let error = error as? ShareError else { return false }
            return error.kind == .badData && error.message.hasPrefix(source.lastPathComponent + ": ")
                && !error.message.contains("\n")
        }
        #expect(try PhotoFixture.contents(of: out).isEmpty)
    }

    @Test("a text file named .jpg: bad data, naming the file")
    func notAnImage() throws {
        let scratch = try TemporaryFolder("photo-failure")
        defer { scratch.remove() }
        let source = try scratch.write("photo.jpg", Data("not a photo at all\n".utf8))
        let out = try scratch.folder("out")
        do {
            _ = try PhotoPreparation.prepare(source, options: PhotoOptions(), into: out)
            Issue.record("a text file was prepared")
        } catch let error as ShareError {
            #expect(error.kind == .badData)
            #expect(error.message == "photo.jpg: not an image this can read")
        }
        try expectBadData(source, PhotoOptions(longEdge: 640, convertsToJPEG: true), out: out)
    }

    @Test("a JPEG cut in half, resized: bad data, nothing half-written left")
    func truncatedWhileDecoding() throws {
        let scratch = try TemporaryFolder("photo-failure")
        defer { scratch.remove() }
        let whole = scratch.file("whole.jpg")
        try PhotoFixture.located(whole, orientation: 1, width: 1600, height: 1200)
        let bytes = try Data(contentsOf: whole)
        let source = try scratch.write("cut.jpg", bytes.prefix(bytes.count / 2))
        let out = try scratch.folder("out")
        try expectBadData(source, PhotoOptions(longEdge: 640), out: out)
    }

    @Test("a JPEG cut inside its header: nothing reads it, so it cannot be made smaller; at its size it goes as it is")
    func truncatedHeader() throws {
        let scratch = try TemporaryFolder("photo-failure")
        defer { scratch.remove() }
        let whole = scratch.file("whole.jpg")
        try PhotoFixture.located(whole, orientation: 1, width: 400, height: 300)
        let source = try scratch.write("cut.jpg", try Data(contentsOf: whole).prefix(200))
        let out = try scratch.folder("out")
        try expectBadData(source, PhotoOptions(longEdge: 100), out: out)
        // exiv2 cannot read it either (checked): no location can be read out of what goes.
        #expect(try PhotoSamples.value("Exif.GPSInfo.GPSLatitude", in: source) == nil)
        #expect(try PhotoPreparation.prepare(source, options: PhotoOptions(), into: out).url == source)
    }

    @Test("a file that only starts like a PNG: no tool reads a location from it, so it goes as it is; it cannot be resized")
    func unreadableLookalike() throws {
        let scratch = try TemporaryFolder("photo-failure")
        defer { scratch.remove() }
        var bytes = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        bytes.append(Data((0..<4000).map { UInt8(truncatingIfNeeded: $0 &* 73 &+ 11) }))
        let source = try scratch.write("photo.png", bytes)
        let out = try scratch.folder("out")
        let kept = try PhotoPreparation.prepare(source, options: PhotoOptions(removesLocation: false, convertsToJPEG: true), into: out)
        #expect(kept.url == source && !kept.isCopy)
        let stripped = try PhotoPreparation.prepare(source, options: PhotoOptions(), into: out)
        #expect(stripped.url == source && !stripped.isCopy)
        try expectBadData(source, PhotoOptions(longEdge: 640, removesLocation: false), out: out)
    }

    @Test("a folder that does not exist: an I/O error")
    func missingFolder() throws {
        let scratch = try TemporaryFolder("photo-failure")
        defer { scratch.remove() }
        let source = scratch.file("photo.jpg")
        try PhotoFixture.located(source, orientation: 1, width: 400, height: 300)
        for options in [PhotoOptions(), PhotoOptions(longEdge: 100)] {
            #expect {
                _ = try PhotoPreparation.prepare(source, options: options, into: scratch.file("gone"))
            } throws: { error in
                (error as? ShareError)?.kind == .ioError
            }
        }
    }

    @Test("prepared into the photo's own folder under its own name: refused, the photo untouched")
    func wouldReplaceSource() throws {
        let scratch = try TemporaryFolder("photo-failure")
        defer { scratch.remove() }
        let source = scratch.file("photo.jpg")
        try PhotoFixture.located(source, orientation: 1, width: 400, height: 300)
        let before = try Data(contentsOf: source)
        for options in [PhotoOptions(), PhotoOptions(longEdge: 100)] {
            #expect {
                _ = try PhotoPreparation.prepare(source, options: options, into: scratch.url)
            } throws: { error in
                (error as? ShareError)?.kind == .usage && (error as? ShareError)?.message.hasPrefix("photo.jpg: ") == true
            }
        }
        #expect(try Data(contentsOf: source) == before)
        #expect(try PhotoFixture.contents(of: scratch.url) == ["photo.jpg"])
    }
}
