import Foundation
import Testing

/// Bytes on standard input are sniffed: `grim - | share --activity copy -` copies an image,
/// `share --activity photos - < photo.png` saves one.
@Suite("share, piped items")
final class PipedItemTests {
    let folder: URL

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    init() throws {
        folder = try ShareBinary.makeFolder()
    }

    /// The repository's sample picture, a real 64×40 PNG.
    private static let samplePNG: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/Samples/sunset.png")

    @Test func pipedBytesAreListedByWhatTheyAre() async throws {
        let png = try [UInt8](Data(contentsOf: Self.samplePNG))
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01] + [UInt8](repeating: 0, count: 64)
        let pdf = [UInt8]("%PDF-1.4\n%\u{E2}\u{E3}\u{CF}\u{D3}\n1 0 obj\n<< /Type /Catalog >>\nendobj\n".utf8)
        for (bytes, kind) in [(png, "image (public.png)"), (jpeg, "image (public.jpeg)"), (pdf, "data (com.adobe.pdf)")] {
            let run = try await ShareBinary.run(["--list", "-"], in: folder, input: .bytes(bytes))
            #expect(run.status == 0, "\(run)")
            #expect(run.standardOutput.contains("  -  \(kind)\n"), "\(run)")
        }
        let text = try await ShareBinary.run(["--list", "-"], in: folder, input: .text("see you at 6\n"))
        #expect(text.standardOutput.contains("  -  text\n"), "\(text)")
    }

    @Test func aPipedPictureIsSavedToPhotos() async throws {
        let png = try Data(contentsOf: Self.samplePNG)
        let run = try await ShareBinary.run(
            ["--activity", "photos", "--json", "-"], in: folder, input: .bytes([UInt8](png)))
        #expect(run.status == 0, "\(run)")
        let result = try #require(
            try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        #expect(result["disposition"] as? String == "saved")
        let saved = try #require((result["returnedItems"] as? [String])?.first)
        #expect(saved.hasPrefix(folder.appendingPathComponent("home/Pictures").path), "\(saved)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: saved)) == png)
    }
}
