import Foundation
import LocalTestSupport
import PhotoPreparation
import Testing

/// Formats a receiver may not read become JPEG, told by content, with the location removed on
/// the way. libheif on Debian 12 encodes HEIC (x265) and AVIF (aom), so both are made here with
/// `vips copy` from a JPEG that carries location, serials and Exif orientation 6.
///
/// HEIF readers turn a picture by the container's `irot`/`imir` boxes and ignore the Exif
/// orientation inside (libheif, libvips and phones alike), and `vips copy` writes no `irot`: the
/// HEIC and AVIF fixtures display at their stored 1600×1200, and the JPEG made from them must
/// not carry the stale orientation 6, or a receiver would turn it wrongly.
@Suite("Photo conversion")
struct ConversionTests {
    /// A 1600×1200 photo with location, orientation 6, in the format `name`'s extension says.
    func photo(_ name: String, in scratch: TemporaryFolder) throws -> URL {
        let jpeg = scratch.file("camera.jpg")
        try PhotoFixture.located(jpeg, orientation: 6, width: 1600, height: 1200)
        let converted = scratch.file(name)
        try PhotoSamples.convert(jpeg, to: converted)
        return converted
    }

    func expectJPEG(_ url: URL, width: Int, height: Int) throws {
        let head = try FileHandle(forReadingFrom: url).read(upToCount: 3) ?? Data()
        #expect(Array(head) == [0xFF, 0xD8, 0xFF])
        #expect(try PhotoFixture.header("vips-loader", of: url) == "jpegload")
        #expect(try PhotoSamples.size(of: url) == (width, height))
    }

    @Test("WebP with convertsToJPEG: a JPEG named .jpg, upright, without location")
    func webp() throws {
        let scratch = try TemporaryFolder("photo-convert")
        defer { scratch.remove() }
        let source = try photo("IMG_2.webp", in: scratch)
        #expect(try PhotoFixture.metadata(source).contains("GPSLatitude"))
        let out = try scratch.folder("out")
        let before = try Data(contentsOf: source)

        let prepared = try PhotoPreparation.prepare(source, options: PhotoOptions(convertsToJPEG: true), into: out)

        #expect(prepared.url == out.appendingPathComponent("IMG_2.jpg"))
        #expect(prepared.wasReencoded)
        #expect((prepared.pixelWidth, prepared.pixelHeight) == (1200, 1600))
        try expectJPEG(prepared.url, width: 1200, height: 1600)
        #expect(!(try PhotoFixture.metadata(prepared.url)).contains("GPS"))
        #expect(try Data(contentsOf: source) == before)
    }

    @Test("WebP without convertsToJPEG, resized: stays WebP")
    func webpStaysWebP() throws {
        let scratch = try TemporaryFolder("photo-convert")
        defer { scratch.remove() }
        let source = try photo("IMG_2.webp", in: scratch)
        let out = try scratch.folder("out")

        let prepared = try PhotoPreparation.prepare(source, options: PhotoOptions(longEdge: 400), into: out)

        #expect(prepared.url.lastPathComponent == "IMG_2.webp")
        #expect(try PhotoFixture.header("vips-loader", of: prepared.url) == "webpload")
        #expect(try PhotoSamples.size(of: prepared.url) == (300, 400))
        let sent = try PhotoFixture.metadata(prepared.url)
        #expect(!sent.contains("GPS"))
        #expect(!sent.contains("SerialNumber"))
    }

    @Test("HEIC with convertsToJPEG: IMG_1.HEIC becomes IMG_1.jpg, without location")
    func heic() throws {
        let scratch = try TemporaryFolder("photo-convert")
        defer { scratch.remove() }
        let made = try photo("IMG_1.heic", in: scratch)
        let source = scratch.file("IMG_1.HEIC")
        try FileManager.default.moveItem(at: made, to: source)
        #expect(PhotoPreparation.canPrepare(source))
        #expect(try PhotoFixture.metadata(source).contains("GPSLatitude"))
        let out = try scratch.folder("out")

        let prepared = try PhotoPreparation.prepare(source, options: PhotoOptions(longEdge: 640, convertsToJPEG: true), into: out)

        #expect(prepared.url == out.appendingPathComponent("IMG_1.jpg"))
        try expectJPEG(prepared.url, width: 640, height: 480)
        #expect(try PhotoSamples.value("Exif.Image.Orientation", in: prepared.url).map { $0 == "1" } ?? true)
        let sent = try PhotoFixture.metadata(prepared.url)
        #expect(!sent.contains("GPS"))
        #expect(!sent.contains("SerialNumber"))
    }

    @Test("AVIF with convertsToJPEG, location kept: a JPEG that still has it")
    func avif() throws {
        let scratch = try TemporaryFolder("photo-convert")
        defer { scratch.remove() }
        let source = try photo("picture.avif", in: scratch)
        #expect(PhotoPreparation.canPrepare(source))
        let out = try scratch.folder("out")

        let prepared = try PhotoPreparation.prepare(
            source, options: PhotoOptions(removesLocation: false, convertsToJPEG: true), into: out)

        #expect(prepared.url == out.appendingPathComponent("picture.jpg"))
        try expectJPEG(prepared.url, width: 1600, height: 1200)
        #expect(try PhotoSamples.value("Exif.Image.Orientation", in: prepared.url).map { $0 == "1" } ?? true)
        #expect(try PhotoSamples.value("Exif.GPSInfo.GPSLatitude", in: prepared.url) == "48/1 51/1 2400/100")
    }

    @Test("canPrepare reads the content, not the name")
    func byContent() throws {
        let scratch = try TemporaryFolder("photo-convert")
        defer { scratch.remove() }
        let jpeg = scratch.file("photo.jpg")
        try PhotoSamples.camera(jpeg, width: 64, height: 48)
        let misnamed = scratch.file("photo.txt")
        try FileManager.default.copyItem(at: jpeg, to: misnamed)
        let text = try scratch.write("notes.jpg", Data("just words\n".utf8))
        let gif = scratch.file("anim.gif")
        try PhotoSamples.convert(jpeg, to: gif)
        let tiff = scratch.file("scan.tif")
        try PhotoSamples.convert(jpeg, to: tiff)

        #expect(PhotoPreparation.canPrepare(misnamed))
        #expect(PhotoPreparation.canPrepare(tiff))
        #expect(!PhotoPreparation.canPrepare(text))
        #expect(!PhotoPreparation.canPrepare(gif))
        #expect(!PhotoPreparation.canPrepare(scratch.file("missing.jpg")))
    }
}
