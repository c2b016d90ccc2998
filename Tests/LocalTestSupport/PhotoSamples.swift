import Foundation
import Testing

/// Photos as a phone leaves them, made at test time with ImageMagick and exiv2, and read back
/// with the programs a receiver would use (exiv2, vipsheader): for the tests of what leaves
/// the machine (SPEC §13).
public enum PhotoSamples {
    /// Location and serial numbers a phone writes, as exiv2 `set` commands.
    public static let privateMetadata = [
        "set Exif.GPSInfo.GPSLatitudeRef N", "set Exif.GPSInfo.GPSLatitude 48/1 51/1 2400/100",
        "set Exif.GPSInfo.GPSLongitudeRef E", "set Exif.GPSInfo.GPSLongitude 2/1 21/1 0/1",
        "set Exif.Photo.BodySerialNumber 012345678",
    ]

    /// A JPEG of `width`×`height` with a gradient under noise (it does not compress away), with
    /// location, a camera serial and the Exif `orientation`.
    public static func located(_ url: URL, width: Int = 1200, height: Int = 900, orientation: Int = 1) throws {
        try camera(url, width: width, height: height)
        try tag(url, privateMetadata + ["set Exif.Image.Orientation \(orientation)"])
    }

    /// A JPEG of `width`×`height` with a gradient under noise, without metadata (4000×3000:
    /// about 2 s of ImageMagick's time).
    public static func camera(_ url: URL, width: Int = 4000, height: Int = 3000) throws {
        // /usr/bin/convert by its path: another convert may come first on PATH.
        try Command.output(
            "/usr/bin/convert",
            ["-size", "\(width)x\(height)", "gradient:#3060a0-#e0c080", "-attenuate", "0.3", "+noise", "Gaussian",
             "-quality", "90", url.path])
    }

    /// Sets metadata with the exiv2 command (`set KEY VALUE` lines).
    public static func tag(_ url: URL, _ commands: [String]) throws {
        try Command.output("/usr/bin/exiv2", commands.flatMap { ["-M", $0] } + [url.path])
    }

    /// `vips copy`: the same picture and metadata in the format of the target's extension.
    public static func convert(_ source: URL, to target: URL) throws {
        try Command.output("/usr/bin/vips", ["copy", source.path, target.path])
    }

    /// The value of one Exif or XMP key (`exiv2 -K KEY -Pv`), or nil when the file has none.
    public static func value(_ key: String, in url: URL) throws -> String? {
        let output = try Command.run("/usr/bin/exiv2", ["-K", key, "-Pv", url.path]).standardOutput
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return output.isEmpty ? nil : output
    }

    /// The stored pixel size, as libvips reads it.
    public static func size(of url: URL) throws -> (width: Int, height: Int) {
        func field(_ name: String) throws -> Int {
            Int(try Command.output("/usr/bin/vipsheader", ["-f", name, url.path]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        }
        return (try field("width"), try field("height"))
    }

    /// A JPEG's entropy-coded data: from its first SOS marker, found by walking the segments
    /// (an Exif thumbnail has an SOS of its own inside APP1), to the end.
    public static func scanData(_ url: URL) throws -> Data {
        let bytes = try Data(contentsOf: url)
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            if bytes[offset + 1] == 0xDA { return bytes.subdata(in: offset..<bytes.count) }
            offset += 2 + (Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3]))
        }
        throw PeerError("\(url.lastPathComponent): no JPEG scan data")
    }

    /// Writes the attachments of a received message into `folder` under their names, with
    /// Python's `email` package; their files, in the message's order.
    public static func attachments(of message: URL, into folder: URL) throws -> [URL] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = """
            import email, email.policy, os, sys
            message = email.message_from_binary_file(open(sys.argv[1], 'rb'), policy=email.policy.default)
            for part in message.iter_attachments():
                name = os.path.basename(part.get_filename())
                open(os.path.join(sys.argv[2], name), 'wb').write(part.get_payload(decode=True))
                print(name + '\\t' + part.get_content_type())
            """
        let output = try Command.output("/usr/bin/python3", ["-c", script, message.path, folder.path])
        return output.split(separator: "\n").map { folder.appendingPathComponent(String($0.split(separator: "\t")[0])) }
    }
}
