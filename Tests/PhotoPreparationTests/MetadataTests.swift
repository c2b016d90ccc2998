import Foundation
import LocalTestSupport
import PhotoPreparation
import ShareSheet
import Testing

/// Location and serial numbers, read back with exiv2 as a receiver would: removed at the
/// original size without touching the image data, carried when the person keeps them, and no
/// copy at all when there is nothing to remove.
@Suite("Photo metadata")
struct MetadataTests {
    @Test("original size: location and serials removed, orientation 6 kept, scan data and source unchanged")
    func originalSizeRemovesWithoutReencoding() throws {
        let scratch = try TemporaryFolder("photo-metadata")
        defer { scratch.remove() }
        let source = scratch.file("photo.jpg")
        try PhotoFixture.located(source, orientation: 6)
        let out = try scratch.folder("out")
        let before = try Data(contentsOf: source)
        #expect(try PhotoFixture.metadata(source).contains("Exif.GPSInfo.GPSLatitude"))

        let prepared = try PhotoPreparation.prepare(source, options: PhotoOptions(), into: out)

        #expect(prepared.url == out.appendingPathComponent("photo.jpg"))
        #expect(prepared.isCopy)
        #expect(!prepared.wasReencoded)
        #expect((prepared.pixelWidth, prepared.pixelHeight) == (3000, 4000))
        let sent = try PhotoFixture.metadata(prepared.url)
        #expect(!sent.contains("GPS"))
        #expect(!sent.contains("SerialNumber"))
        #expect(try PhotoSamples.value("Exif.Image.Orientation", in: prepared.url) == "6")
        #expect(try PhotoSamples.scanData(prepared.url) == PhotoSamples.scanData(source))
        #expect(prepared.byteCount == (try Data(contentsOf: prepared.url)).count)
        #expect(try Data(contentsOf: source) == before)
        #expect(try PhotoFixture.contents(of: out) == ["photo.jpg"])
    }

    @Test("removesLocation false: location and serials stay on a resized copy")
    func keptWhenAsked() throws {
        let scratch = try TemporaryFolder("photo-metadata")
        defer { scratch.remove() }
        let source = scratch.file("photo.jpg")
        try PhotoFixture.located(source, orientation: 1)
        let out = try scratch.folder("out")

        let prepared = try PhotoPreparation.prepare(source, options: PhotoOptions(longEdge: 640, removesLocation: false), into: out)

        #expect(prepared.wasReencoded)
        #expect(try PhotoSamples.size(of: prepared.url) == (640, 480))
        #expect(try PhotoSamples.value("Exif.GPSInfo.GPSLatitude", in: prepared.url) == "48/1 51/1 2400/100")
        #expect(try PhotoSamples.value("Exif.GPSInfo.GPSLongitudeRef", in: prepared.url) == "E")
        #expect(try PhotoSamples.value("Exif.Photo.BodySerialNumber", in: prepared.url) == "012345678")
        #expect(try PhotoSamples.value("Xmp.aux.SerialNumber", in: prepared.url) == "99887766")
    }

    @Test("removesLocation false at the original size: nothing changes, so the source itself")
    func keptAtOriginalSize() throws {
        let scratch = try TemporaryFolder("photo-metadata")
        defer { scratch.remove() }
        let source = scratch.file("photo.jpg")
        try PhotoFixture.located(source, orientation: 6)
        let out = try scratch.folder("out")

        let prepared = try PhotoPreparation.prepare(source, options: PhotoOptions(removesLocation: false), into: out)

        #expect(prepared.url == source)
        #expect(!prepared.isCopy)
        #expect((prepared.pixelWidth, prepared.pixelHeight) == (3000, 4000))
        #expect(try PhotoFixture.contents(of: out).isEmpty)
    }

    @Test("nothing to remove: the source itself, no copy")
    func nothingToRemove() throws {
        let scratch = try TemporaryFolder("photo-metadata")
        defer { scratch.remove() }
        let source = scratch.file("plain.jpg")
        try PhotoSamples.camera(source)
        try PhotoSamples.tag(source, ["set Exif.Image.Make Camera", "set Exif.Image.Orientation 1"])
        let out = try scratch.folder("out")
        let before = try Data(contentsOf: source)

        let prepared = try PhotoPreparation.prepare(source, options: PhotoOptions(), into: out)

        #expect(prepared.url == source)
        #expect(!prepared.isCopy)
        #expect(!prepared.wasReencoded)
        #expect((prepared.pixelWidth, prepared.pixelHeight) == (4000, 3000))
        #expect(prepared.byteCount == before.count)
        #expect(try PhotoFixture.contents(of: out).isEmpty)
        #expect(try Data(contentsOf: source) == before)
    }

    @Test("a maker-note-style serial and XMP GPS go too")
    func otherSerialsAndXMPLocation() throws {
        let scratch = try TemporaryFolder("photo-metadata")
        defer { scratch.remove() }
        let source = scratch.file("photo.jpg")
        try PhotoSamples.camera(source, width: 800, height: 600)
        try PhotoSamples.tag(
            source,
            ["set Xmp.exif.GPSLatitude 48,51.4N", "set Xmp.exif.GPSLongitude 2,21.0E", "set Xmp.exifEX.BodySerialNumber 777",
             "set Exif.Image.Make Camera"])
        let out = try scratch.folder("out")

        let prepared = try PhotoPreparation.prepare(source, options: PhotoOptions(), into: out)

        #expect(prepared.isCopy)
        let sent = try PhotoFixture.metadata(prepared.url)
        #expect(!sent.contains("GPS"))
        #expect(!sent.contains("SerialNumber"))
        #expect(try PhotoSamples.value("Exif.Image.Make", in: prepared.url) == "Camera")
    }

    @Test("PNG, WebP and TIFF at the original size: location removed by rewriting metadata only", arguments: ["png", "webp", "tif"])
    func otherFormatsRewritten(_ fileExtension: String) throws {
        let scratch = try TemporaryFolder("photo-metadata")
        defer { scratch.remove() }
        let jpeg = scratch.file("camera.jpg")
        try PhotoFixture.located(jpeg, orientation: 1, width: 800, height: 600)
        let source = scratch.file("photo." + fileExtension)
        try PhotoSamples.convert(jpeg, to: source)
        // libvips' TIFF writer carries no Exif: the TIFF gets its location from exiv2 directly.
        if fileExtension == "tif" { try PhotoSamples.tag(source, PhotoFixture.privateMetadata) }
        #expect(try PhotoFixture.metadata(source).contains("GPSLatitude"))
        let out = try scratch.folder("out")
        let loader = try PhotoFixture.header("vips-loader", of: source)

        let prepared = try PhotoPreparation.prepare(source, options: PhotoOptions(), into: out)

        #expect(prepared.url == out.appendingPathComponent("photo." + fileExtension))
        #expect(prepared.isCopy && !prepared.wasReencoded)
        #expect(try PhotoFixture.header("vips-loader", of: prepared.url) == loader)
        #expect(try PhotoSamples.size(of: prepared.url) == (800, 600))
        let sent = try PhotoFixture.metadata(prepared.url)
        #expect(!sent.contains("GPS"))
        #expect(!sent.contains("SerialNumber"))
    }
}
