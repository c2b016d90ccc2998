import Foundation
import LocalTestSupport
import PhotoPreparation
import Testing

/// Resizing: fitted inside the long edge as displayed, turned upright, never enlarged.
@Suite("Photo resizing")
struct ResizeTests {
    @Test("4000×3000, orientation 1, long edge 640: 640×480 without location")
    func landscape() throws {
        let scratch = try TemporaryFolder("photo-resize")
        defer { scratch.remove() }
        let source = scratch.file("photo.jpg")
        try PhotoFixture.located(source, orientation: 1)
        let out = try scratch.folder("out")
        let before = try Data(contentsOf: source)

        let prepared = try PhotoPreparation.prepare(source, options: PhotoOptions(longEdge: 640), into: out)

        #expect(prepared.url == out.appendingPathComponent("photo.jpg"))
        #expect(prepared.isCopy && prepared.wasReencoded)
        #expect((prepared.pixelWidth, prepared.pixelHeight) == (640, 480))
        #expect(try PhotoSamples.size(of: prepared.url) == (640, 480))
        #expect(try PhotoFixture.header("vips-loader", of: prepared.url) == "jpegload")
        let sent = try PhotoFixture.metadata(prepared.url)
        #expect(!sent.contains("GPS"))
        #expect(!sent.contains("SerialNumber"))
        #expect(try Data(contentsOf: source) == before)
        #expect(try PhotoFixture.contents(of: out) == ["photo.jpg"])
    }

    @Test("4000×3000, orientation 6, long edge 640: 480×640 upright, orientation 1 or none")
    func turned() throws {
        let scratch = try TemporaryFolder("photo-resize")
        defer { scratch.remove() }
        let source = scratch.file("photo.jpg")
        try PhotoFixture.located(source, orientation: 6)
        let out = try scratch.folder("out")

        let prepared = try PhotoPreparation.prepare(source, options: PhotoOptions(longEdge: 640), into: out)

        #expect((prepared.pixelWidth, prepared.pixelHeight) == (480, 640))
        #expect(try PhotoSamples.size(of: prepared.url) == (480, 640))
        let orientation = try PhotoSamples.value("Exif.Image.Orientation", in: prepared.url)
        #expect(orientation == nil || orientation == "1")
        #expect(try PhotoSamples.value("Xmp.tiff.Orientation", in: prepared.url).map { $0 == "1" } ?? true)
        #expect(!(try PhotoFixture.metadata(prepared.url)).contains("GPS"))
    }

    @Test("a long edge larger than the photo: never enlarged, so only the metadata goes")
    func neverEnlarged() throws {
        let scratch = try TemporaryFolder("photo-resize")
        defer { scratch.remove() }
        let source = scratch.file("small.jpg")
        try PhotoFixture.located(source, orientation: 1, width: 800, height: 600)
        let out = try scratch.folder("out")

        let prepared = try PhotoPreparation.prepare(source, options: PhotoOptions(longEdge: 2048), into: out)

        #expect(!prepared.wasReencoded)
        #expect(try PhotoSamples.size(of: prepared.url) == (800, 600))
        #expect(try PhotoSamples.scanData(prepared.url) == PhotoSamples.scanData(source))
    }

    @Test("a PNG stays a PNG when resized")
    func pngStaysPNG() throws {
        let scratch = try TemporaryFolder("photo-resize")
        defer { scratch.remove() }
        let jpeg = scratch.file("photo.jpg")
        try PhotoSamples.camera(jpeg, width: 1600, height: 1200)
        let source = scratch.file("screen.png")
        try PhotoSamples.convert(jpeg, to: source)
        let out = try scratch.folder("out")

        let prepared = try PhotoPreparation.prepare(source, options: PhotoOptions(longEdge: 400, convertsToJPEG: true), into: out)

        #expect(prepared.url.lastPathComponent == "screen.png")
        #expect(try PhotoFixture.header("vips-loader", of: prepared.url) == "pngload")
        #expect(try PhotoSamples.size(of: prepared.url) == (400, 300))
    }
}
