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

    /// A 4000×3000 JPEG with natural-ish content (a gradient under Gaussian noise, which does
    /// not compress away), without metadata. About 2 s of ImageMagick's time.
    static func camera(_ url: URL, width: Int = 4000, height: Int = 3000) throws {
        // /usr/bin/convert explicitly: /usr/local/bin/convert on this machine is something else.
        try Command.output(
            "/usr/bin/convert",
            ["-size", "\(width)x\(height)", "gradient:#3060a0-#e0c080", "-attenuate", "0.3", "+noise", "Gaussian",
             "-quality", "90", url.path])
    }

    /// Sets metadata with the exiv2 command (`set KEY VALUE` lines).
    static func tag(_ url: URL, _ commands: [String]) throws {
        try Command.output("exiv2", commands.flatMap { ["-M", $0] } + [url.path])
    }

    /// A photo with location and serials, and this Exif orientation.
    static func located(_ url: URL, orientation: Int, width: Int = 4000, height: Int = 3000) throws {
        try camera(url, width: width, height: height)
        try tag(url, privateMetadata + ["set Exif.Image.Orientation \(orientation)"])
    }

    /// `vips copy`: the same picture and metadata in the format the name's extension says.
    static func convert(_ source: URL, to target: URL) throws {
        try Command.output("vips", ["copy", source.path, target.path])
    }

    /// What `exiv2 -pa` prints: every Exif, IPTC and XMP key with its value. exiv2 exits
    /// non-zero for a file without metadata, so the status is not checked.
    static func metadata(_ url: URL) throws -> String {
        try Command.run("/usr/bin/exiv2", ["-pa", url.path]).standardOutput
    }

    /// The raw value of one key (`exiv2 -K KEY -Pv`: the exact key; `-g` would match
    /// GPSLatitudeRef too), or nil when absent.
    static func value(_ key: String, in url: URL) throws -> String? {
        let output = try Command.run("/usr/bin/exiv2", ["-K", key, "-Pv", url.path]).standardOutput
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return output.isEmpty ? nil : output
    }

    /// `vipsheader -f FIELD`: "width", "height", "vips-loader".
    static func header(_ field: String, of url: URL) throws -> String {
        try Command.output("vipsheader", ["-f", field, url.path]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The displayed size libvips decodes: stored size, and the orientation it would apply.
    static func size(of url: URL) throws -> (width: Int, height: Int) {
        (Int(try header("width", of: url)) ?? -1, Int(try header("height", of: url)) ?? -1)
    }

    /// A JPEG's entropy-coded data: from its first SOS marker (FF DA), found by walking the
    /// segments from SOI (an Exif thumbnail inside APP1 has an SOS of its own), to the end.
    static func scanData(_ url: URL) throws -> Data {
        let bytes = try Data(contentsOf: url)
        var offset = 2  // after SOI
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { throw PeerError("\(url.lastPathComponent): no marker at \(offset)") }
            let marker = bytes[offset + 1]
            if marker == 0xDA { return bytes.subdata(in: offset..<bytes.count) }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            offset += 2 + length
        }
        throw PeerError("\(url.lastPathComponent): no SOS marker")
    }

    /// The names in a folder, sorted, hidden ones included.
    static func contents(of folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }
}
