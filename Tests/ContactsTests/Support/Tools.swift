import CGdkPixbuf
import Foundation
import LocalTestSupport
import Testing

/// Test images made with gdk-pixbuf: a gradient, so scaling and JPEG have real work to do.
enum TestImages {
    /// An image of `width`×`height` pixels encoded as `format` ("png" or "jpeg").
    static func make(width: Int, height: Int, format: String = "png", alpha: Bool = false) -> Data {
        let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, alpha ? 1 : 0, 8, Int32(width), Int32(height))!
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        let channels = Int(gdk_pixbuf_get_n_channels(pixbuf))
        let pixels = gdk_pixbuf_get_pixels(pixbuf)!
        for y in 0..<height {
            for x in 0..<width {
                let pixel = pixels + y * stride + x * channels
                pixel[0] = UInt8(x * 255 / max(1, width - 1))
                pixel[1] = UInt8(y * 255 / max(1, height - 1))
                pixel[2] = UInt8((x + y) % 256)
                if alpha { pixel[3] = x < width / 2 ? 0 : 255 }
            }
        }
        var buffer: UnsafeMutablePointer<gchar>?
        var size: gsize = 0
        let saved = gdk_pixbuf_save_to_bufferv(pixbuf, &buffer, &size, format, nil, nil, nil)
        precondition(saved != 0 && buffer != nil, "gdk-pixbuf could not encode a test \(format)")
        defer { g_free(buffer) }
        return Data(bytes: buffer!, count: Int(size))
    }

    /// The color of one pixel of an encoded image, decoded with gdk-pixbuf.
    static func pixel(of data: Data, x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8)? {
        guard let loader = gdk_pixbuf_loader_new() else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(loader)) }
        let written = data.withUnsafeBytes { buffer in
            gdk_pixbuf_loader_write(loader, buffer.baseAddress!.assumingMemoryBound(to: guchar.self), gsize(buffer.count), nil)
        }
        guard gdk_pixbuf_loader_close(loader, nil) != 0, written != 0, let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader),
            x < gdk_pixbuf_get_width(pixbuf), y < gdk_pixbuf_get_height(pixbuf)
        else { return nil }
        let pixel = gdk_pixbuf_get_pixels(pixbuf)! + y * Int(gdk_pixbuf_get_rowstride(pixbuf))
            + x * Int(gdk_pixbuf_get_n_channels(pixbuf))
        return (pixel[0], pixel[1], pixel[2])
    }

    /// The pixel size of a JPEG, read from its start-of-frame marker (independently of
    /// gdk-pixbuf).
    static func jpegSize(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data)
        guard bytes.starts(with: [0xFF, 0xD8]) else { return nil }
        var index = 2
        while index + 9 < bytes.count {
            guard bytes[index] == 0xFF else { return nil }
            let marker = bytes[index + 1]
            if marker == 0xFF { index += 1; continue }
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                let height = Int(bytes[index + 5]) << 8 | Int(bytes[index + 6])
                let width = Int(bytes[index + 7]) << 8 | Int(bytes[index + 8])
                return (width, height)
            }
            index += 2 + length
        }
        return nil
    }
}

/// How a program ended, what it printed, and the most memory it held.
struct MeasuredRun: CustomStringConvertible {
    var run: Command.Result
    /// The child's peak resident set (its `VmHWM`), in bytes, as `wait4` reports it in `ru_maxrss`.
    var peakBytes: Int

    var description: String { "\(run)--- peak \(peakBytes / 1_048_576) MiB" }
}

/// Runs a program with LocalTestSupport's `Command` and also measures its memory.
enum MemoryMeter {
    /// Runs `program` like `Command.run`, and also measures its peak memory: the high-water
    /// mark of its own resident set (`VmHWM`), read while it runs (`watchPeakMemory`). It runs
    /// in this process's working directory. A child still running after `timeout` seconds is
    /// stopped by its PID.
    static func runMeasuringMemory(
        _ program: String, _ arguments: [String], environment: [String: String],
        timeout: Double = 300, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> MeasuredRun {
        let process = try Command.start(program, arguments, environment: environment)
        process.watchPeakMemory()
        let run = await process.finish(timeout: timeout, sourceLocation: sourceLocation)
        return MeasuredRun(run: run, peakBytes: process.peakResidentBytes)
    }
}
