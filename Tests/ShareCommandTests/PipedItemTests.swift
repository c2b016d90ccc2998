import Foundation
import LocalTestSupport
import Testing

/// Bytes on standard input are sniffed: `grim - | share --activity copy -` copies an image,
/// `share --activity photos - < photo.png` saves one.
@Suite("share, piped items")
final class PipedItemTests {
    let fixture: CommandFolder
    var folder: URL { fixture.url }

    init() throws {
        fixture = try CommandFolder([:])
    }

    private static let samplePNG = Sample.url("sunset.png")

    @Test func pipedBytesAreListedByWhatTheyAre() async throws {
        let png = try [UInt8](Data(contentsOf: Self.samplePNG))
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01] + [UInt8](repeating: 0, count: 64)
        let pdf = [UInt8]("%PDF-1.4\n%\u{E2}\u{E3}\u{CF}\u{D3}\n1 0 obj\n<< /Type /Catalog >>\nendobj\n".utf8)
        for (bytes, kind) in [
            (png, "image (public.png, image/png)"), (jpeg, "image (public.jpeg, image/jpeg)"),
            (pdf, "data (com.adobe.pdf, application/pdf)"),
        ] {
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

    /// A text message carries attachments as files: a picture from a pipe used to be dropped
    /// without a word (an empty message queued, exit 75); now the share fails, naming it.
    @Test func aPipedPictureIsNotDroppedFromAMessage() async throws {
        let png = try Data(contentsOf: Self.samplePNG)
        let run = try await ShareBinary.run(
            ["--activity", "message", "--to", "+15551234567", "-"], in: folder, input: .bytes([UInt8](png)))
        #expect(run.status == 65, "\(run)")
        #expect(run.standardError.contains("cannot be attached to a text message"), "\(run)")
        let queued = folder.appendingPathComponent("home/data/sharesheet/Messages")
        let entries = (try? FileManager.default.subpathsOfDirectory(atPath: queued.path))?.filter { $0.hasSuffix(".json") } ?? []
        #expect(entries.isEmpty, "\(entries)")
    }

    /// An empty word (an unset shell variable) is no item; it used to share the current folder.
    @Test func anEmptyArgumentIsNoItem() async throws {
        let run = try await ShareBinary.run(["--activity", "copy", ""], in: folder)
        #expect(run.status == 66, "\(run)")
        #expect(run.standardError == "share: an empty argument names no file or link\n", "\(run)")
    }

    // MARK: Standard input is spooled, up to a limit

    /// The run's `TMPDIR`, which must be empty again when the command has ended.
    private var temporaryFolder: URL { folder.appendingPathComponent("tmp") }

    private func limitStandardInput(to size: String) throws {
        let configFolder = folder.appendingPathComponent("home/config/sharesheet")
        try FileManager.default.createDirectory(at: configFolder, withIntermediateDirectories: true)
        try Data("[limits]\nstdin=\(size)\n".utf8).write(to: configFolder.appendingPathComponent("config"))
    }

    private func runSpooling(
        _ arguments: [String], input: ShareBinary.Input, prefix: [String] = []
    ) async throws -> ShareBinary.Run {
        try FileManager.default.createDirectory(at: temporaryFolder, withIntermediateDirectories: true)
        return try await ShareBinary.run(
            arguments, in: folder, input: input, prefix: prefix, environment: ["TMPDIR": temporaryFolder.path])
    }

    private var leftInTemporaryFolder: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: temporaryFolder.path)) ?? ["(no folder)"]
    }

    @Test func standardInputPastTheLimitIsOneLineAndLeavesNothing() async throws {
        try limitStandardInput(to: "1M")
        let run = try await runSpooling(["--activity", "copy", "-"], input: .bytes([UInt8](repeating: 0, count: 2 << 20)))
        #expect(run.status == 65, "\(run)")
        #expect(run.standardError == "share: -: standard input is larger than the 1 MiB limit ([limits] stdin=)\n")
        #expect(run.standardOutput == "")
        #expect(leftInTemporaryFolder == [])
    }

    /// `share --activity copy - </dev/zero` reads up to the limit through one buffer, then stops.
    /// Under a 1 GB address-space limit, so that reading it all into memory fails fast.
    @Test func endlessInputStopsAtTheLimitInLittleMemory() async throws {
        try limitStandardInput(to: "256M")
        let run = try await runSpooling(
            ["--activity", "copy", "-"], input: .file("/dev/zero"),
            prefix: ["/usr/bin/time", "-f", "peak %M kB", "/usr/bin/prlimit", "--as=1000000000"])
        #expect(run.status == 65, "\(run)")
        let lines = run.standardError.split(separator: "\n")
        #expect(lines.first == "share: -: standard input is larger than the 256 MiB limit ([limits] stdin=)", "\(run)")
        let peak = lines.last.flatMap { Int($0.split(separator: " ")[1]) } ?? .max
        #expect(peak < 128 * 1024, "peak resident \(peak) kB")
        #expect(leftInTemporaryFolder == [])
    }

    @Test func aBadLimitIsAConfigurationError() async throws {
        try limitStandardInput(to: "lots")
        let run = try await runSpooling(["--activity", "copy", "-"], input: .text("hello\n"))
        #expect(run.status == 78, "\(run)")
        #expect(
            run.standardError.hasSuffix(
                "share: config: [limits] stdin=lots is not a size (such as 4G, 500M or a number of bytes)\n"), "\(run)")
    }

    @Test func pipedTextIsStillText() async throws {
        let run = try await runSpooling(["--activity", "copy", "-"], input: .text("hello\n"))
        #expect(run.status == 0, "\(run)")
        let pasted = try await ShareBinary.run(["paste"], in: folder)
        #expect(pasted.standardOutput == "hello", "\(pasted)")
        #expect(leftInTemporaryFolder == [])
    }

    /// Past 4 MiB a picture stays in its spooled file, which Save to Photos copies, and which is
    /// gone when the command ends.
    @Test func aLargePipedPictureIsSavedFromItsSpooledFile() async throws {
        let png = try Data(contentsOf: Self.samplePNG) + Data(count: 5 << 20)
        let run = try await runSpooling(["--activity", "photos", "--json", "-"], input: .bytes([UInt8](png)))
        #expect(run.status == 0, "\(run)")
        let result = try #require(
            try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        let saved = try #require((result["returnedItems"] as? [String])?.first)
        #expect(saved.hasPrefix(folder.appendingPathComponent("home/Pictures").path), "\(saved)")
        #expect(saved.hasSuffix(".png"), "\(saved)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: saved)) == png)
        #expect(leftInTemporaryFolder == [])
    }
}
