import CGlibcShims
import Foundation
import LocalTestSupport
import Testing

/// Small real files for the tests.
enum Fixtures {
    /// A 4×3 PNG made with gdk-pixbuf.
    static let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAAA3NCSVQICAjb4U/gAAAAFElEQVQImWM0TjvDAANMDEgAhQMAM5wBa9Gt9g8AAAAASUVORK5CYII=")!

    /// A 4×3 JPEG made with gdk-pixbuf.
    static let jpeg = Data(base64Encoded: "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAMCAgMCAgMDAwMEAwMEBQgFBQQEBQoHBwYIDAoMDAsKCwsNDhIQDQ4RDgsLEBYQERMUFRUVDA8XGBYUGBIUFRT/2wBDAQMEBAUEBQkFBQkUDQsNFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBT/wAARCAADAAQDASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDy+iiiv6gPyQ//2Q==")!

    /// The start of an MP4 file: an `ftyp` box (ISO base media, brand isom), then an `mdat` box.
    static let mp4Header: Data = {
        var bytes: [UInt8] = [0, 0, 0, 0x18] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isomiso2".utf8)
        bytes += [0, 0, 0, 0x10] + Array("mdat".utf8) + Array("videodat".utf8)
        return Data(bytes)
    }()

    /// An MP4 header followed by pseudo-random bytes, `size` bytes in all.
    static func mp4(size: Int) -> Data {
        var words = [UInt64](repeating: 0, count: (size + 7) / 8)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for index in words.indices {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            words[index] = state
        }
        var data = words.withUnsafeBytes { Data($0.prefix(size)) }
        data.replaceSubrange(0..<mp4Header.count, with: mp4Header)
        return data
    }
}

/// True when two files have the same bytes. Regions that are holes in both files (found with
/// SEEK_DATA/SEEK_HOLE) read as zeros in both, so only the data regions are read and compared.
func sameContent(_ first: URL, _ second: URL) throws -> Bool {
    let a = open(first.path, O_RDONLY)
    let b = open(second.path, O_RDONLY)
    defer { close(a); close(b) }
    var infoA = stat(), infoB = stat()
    guard a >= 0, b >= 0, fstat(a, &infoA) == 0, fstat(b, &infoB) == 0, infoA.st_size == infoB.st_size else { return false }
    let size = Int64(infoA.st_size)
    func dataRegions(_ descriptor: Int32) -> [Range<Int64>] {
        var regions: [Range<Int64>] = []
        var offset: Int64 = 0
        while offset < size {
            let start = cglibc_seek_data(descriptor, offset)
            if start < 0 { break }
            let end = min(max(cglibc_seek_hole(descriptor, start), start + 1), size)
            regions.append(start..<end)
            offset = end
        }
        return regions
    }
    var bufferA = [UInt8](repeating: 0, count: 1 << 20), bufferB = bufferA
    for region in dataRegions(a) + dataRegions(b) {
        var offset = region.lowerBound
        while offset < region.upperBound {
            let length = Int(min(Int64(bufferA.count), region.upperBound - offset))
            let readA = pread(a, &bufferA, length, off_t(offset))
            let readB = pread(b, &bufferB, length, off_t(offset))
            guard readA == length, readB == length, bufferA[0..<length] == bufferB[0..<length] else { return false }
            offset += Int64(length)
        }
    }
    return true
}

extension TemporaryHome {
    /// A home for this test target's runs.
    init() throws { try self.init(prefix: "photos") }
}
