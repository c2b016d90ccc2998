import Foundation
import ShareSheet
import ShareSheetTesting
import UniformTypes

/// Sample items of every kind in SPEC §1.7's table.
enum Samples {
    static let string = "Lorem ipsum"
    static let attributed = AttributedString("Lorem ipsum")
    static let webURL = URL(string: "https://example.com/article")!
    static let imageFile = URL(fileURLWithPath: "/nonexistent/photo.jpg")
    static let videoFile = URL(fileURLWithPath: "/nonexistent/clip.mp4")
    static let pdfFile = URL(fileURLWithPath: "/nonexistent/paper.pdf")
    static let textFile = URL(fileURLWithPath: "/nonexistent/notes.txt")
    static let zipFile = URL(fileURLWithPath: "/nonexistent/archive.zip")
    static let smsURL = URL(string: "sms:+15551234567")!
    static let mailtoURL = URL(string: "mailto:someone@example.com")!
    static let telURL = URL(string: "tel:+15551234567")!
    static let pngData = png(width: 3, height: 2)
    static let typedImageData = DataItem(data: pngData, filename: "dot.png")
    static let typedVideoData = DataItem(data: Data("not really".utf8), filename: "clip.mp4", typeIdentifier: "public.mpeg-4")
    static let image = Image(data: pngData)!
    static let videoAsset = Asset(fileURL: videoFile)
    static let photoAsset = Asset(fileURL: imageFile)
    static let color = Color.red
    static var dictionary: [String: Any] { ["answer": 42] }

    /// A PNG header big enough to sniff and to read the size from.
    static func png(width: UInt32, height: UInt32) -> Data {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        bytes += Array("IHDR".utf8)
        for value in [width, height] { bytes += withUnsafeBytes(of: value.bigEndian, Array.init) }
        bytes += [8, 6, 0, 0, 0, 0, 0, 0, 0]
        return Data(bytes)
    }
}

/// A registry whose built-ins all have in-memory backends.
@MainActor
func inMemoryRegistry() -> (ActivityRegistry, InMemoryBackends) {
    let registry = ActivityRegistry()
    let backends = InMemoryBackends()
    backends.install(into: registry)
    return (registry, backends)
}

extension ActivityType {
    static let testA = ActivityType("org.sharesheet.test.A")
    static let testB = ActivityType("org.sharesheet.test.B")
}
