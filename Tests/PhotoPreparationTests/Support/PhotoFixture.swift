import Foundation
import LocalTestSupport
import Testing

/// Photos made at test time, as a camera would leave them, and read back with the programs a
/// receiver would use: exiv2 for metadata, vipsheader for the size and the decoder.
enum PhotoFixture {
    /// Location and serial numbers a phone writes, set with the exiv2 command.
    static let privateMetadata = [
        "set Exif.GPSInfo.GPSLatitudeRef N", "set Exif.GPSInfo.GPSLatitude 48/1 51/1 2400/100",
        "set Exif.GPSInfo.GPSLongitudeRef E", "set Exif.GPSInfo.GPSLongitude 2/1 21/1 0/1",
        "set Exif.Photo.BodySerialNumber 012345678", "set Exif.Photo.LensSerialNumber 4455",
        "set Xmp.aux.SerialNumber 99887766",
    ]

    /// A photo with location and serials, and this Exif orientation.
    static func located(_ url: URL, orientation: Int, width: Int = 4000, height: Int = 3000) throws {
        try PhotoSamples.camera(url, width: width, height: height)
        try PhotoSamples.tag(url, privateMetadata + ["set Exif.Image.Orientation \(orientation)"])
    }

    /// What `exiv2 -pa` prints: every Exif, IPTC and XMP key with its value. exiv2 exits
    /// non-zero for a file without metadata, so the status is not checked.
    static func metadata(_ url: URL) throws -> String {
        try Command.run("/usr/bin/exiv2", ["-pa", url.path]).standardOutput
    }

    /// `vipsheader -f FIELD`: "width", "height", "vips-loader".
    static func header(_ field: String, of url: URL) throws -> String {
        try Command.output("vipsheader", ["-f", field, url.path]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The names in a folder, sorted, hidden ones included.
    static func contents(of folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }
}
