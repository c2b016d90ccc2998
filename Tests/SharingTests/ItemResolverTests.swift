import Foundation
import LocalTestSupport
import ShareSheet
import Testing
import UniformTypes

@testable import Sharing

/// Bytes that start the way each format starts, enough for shared-mime-info's magic.
enum SampleBytes {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52]) + Data(count: 32)
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01]) + Data(count: 32)
    static let pdf = Data("%PDF-1.4\n%\u{E2}\u{E3}\u{CF}\u{D3}\n1 0 obj\n<< /Type /Catalog >>\nendobj\n".utf8)
}

@Suite final class ItemResolverTests {
    /// The test's own folder: `spool/` is the resolver's temporary directory.
    let folder: URL
    let spoolFolder: URL
    /// The standard inputs the test opened, closed when it ends.
    private var descriptors: [Int32] = []

    init() throws {
        let folder = try TemporaryFolder("resolver")
        self.folder = folder.url
        spoolFolder = try folder.folder("spool")
    }

    deinit {
        for descriptor in descriptors { close(descriptor) }
        TemporaryFolder(existing: folder).remove()
    }

    /// A resolver whose standard input is a file holding `standardInput` (a socket when
    /// `throughPipe`, fed by a thread), spooling into `spoolFolder`.
    private func resolver(
        standardInput: Data, limit: StandardInputLimit = .default, throughPipe: Bool = false
    ) throws -> ItemResolver {
        let descriptor: Int32
        if throughPipe {
            // A socket pair, whose writer gets EPIPE instead of SIGPIPE once the reader is closed.
            var ends: [Int32] = [0, 0]
            #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0)
            descriptor = ends[0]
            let writer = ends[1]
            Thread.detachNewThread {
                var written = 0
                while written < standardInput.count {
                    let count = standardInput.withUnsafeBytes {
                        send(writer, $0.baseAddress! + written, $0.count - written, Int32(MSG_NOSIGNAL))
                    }
                    if count <= 0 { break }  // the reader stopped: the limit was reached
                    written += count
                }
                close(writer)
            }
        } else {
            let file = folder.appendingPathComponent("stdin-\(UUID().uuidString)")
            try standardInput.write(to: file)
            descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
        }
        descriptors.append(descriptor)
        return ItemResolver(
            currentDirectory: folder.path, standardInput: descriptor, standardInputLimit: limit,
            temporaryDirectory: spoolFolder)
    }

    private var spooledNames: [String] { (try? FileManager.default.contentsOfDirectory(atPath: spoolFolder.path)) ?? [] }

    @Test func pipedImagesArePicturesNotData() async throws {
        for (bytes, type) in [(SampleBytes.png, UTType.png), (SampleBytes.jpeg, UTType.jpeg)] {
            let item = try await resolver(standardInput: bytes).resolve(.standardInput)
            let image = try #require(item.value as? Image, "\(type.identifier) came out as \(item.value)")
            #expect(image.type == type)
            #expect(item.label == "-")
            #expect(ItemKind.of(item.value) == .image(type))
            #expect(item.spooledFile == nil)
        }
        #expect(spooledNames == [])
    }

    @Test func pipedPDFIsANamedPDFDocument() async throws {
        let item = try await resolver(standardInput: SampleBytes.pdf).resolve(.standardInput)
        let data = try #require(item.value as? DataItem)
        #expect(data.type == .pdf)
        #expect(data.filename == "stdin.pdf")
        #expect(ItemKind.of(item.value) == .data(.pdf, declared: true))
    }

    @Test(arguments: [false, true])
    func pipedTextIsTextWithoutTheLastNewline(throughPipe: Bool) async throws {
        let item = try await resolver(standardInput: Data("see you at 6\n".utf8), throughPipe: throughPipe)
            .resolve(.standardInput)
        #expect(item.value as? String == "see you at 6")
        #expect(item.spooledFile == nil)
        #expect(spooledNames == [])
    }

    @Test func emptyInputNamesTheItem() async throws {
        let resolver = try resolver(standardInput: Data())
        let error = await #expect(throws: ShareError.self) { try await resolver.resolve(.standardInput) }
        #expect(error?.kind == .noInput)
        #expect(error?.message == "-: standard input is empty")
        #expect(spooledNames == [])
    }

    @Test func standardInputOnlyOnce() async throws {
        let resolver = try resolver(standardInput: Data("x".utf8))
        let error = await #expect(throws: ShareError.self) { try await resolver.resolve([.standardInput, .standardInput]) }
        #expect(error?.kind == .usage)
    }

    /// Past `inMemoryLimit`, standard input stays in its spooled file, named by its first
    /// bytes, and removing the items removes it.
    @Test(arguments: [false, true])
    func largeInputIsAFileOfItsOwn(throughPipe: Bool) async throws {
        let size = ItemResolver.inMemoryLimit + 1
        for (bytes, name, type) in [
            (Data(count: size), "stdin.bin", UTType.data),
            (Data(repeating: UInt8(ascii: "a"), count: size), "stdin.txt", UTType.plainText),
            (SampleBytes.pdf + Data(count: size), "stdin.pdf", UTType.pdf),
        ] {
            let items = try await resolver(standardInput: bytes, throughPipe: throughPipe).resolve([.standardInput])
            let url = try #require(items.first?.value as? URL)
            let spooled = try #require(items.first?.spooledFile)
            #expect(url == spooled.url)
            #expect(url.lastPathComponent == name)
            #expect(url.path.hasPrefix(spoolFolder.path + "/"))
            #expect(spooled.byteCount == Int64(size) + (type == .pdf ? Int64(SampleBytes.pdf.count) : 0))
            #expect(spooled.type.conforms(to: type), "\(spooled.type.identifier)")
            #expect(try Data(contentsOf: url) == bytes)
            #expect(items.first?.label == "-")
            items.removeSpooledFiles()
            #expect(spooledNames == [])
        }
    }

    @Test(arguments: [false, true])
    func moreThanTheLimitNamesTheKeyAndLeavesNothing(throughPipe: Bool) async throws {
        let limit = try #require(StandardInputLimit(parsing: "1M"))
        let exactly = try await resolver(standardInput: Data(count: 1 << 20), limit: limit, throughPipe: throughPipe)
            .resolve(.standardInput)
        #expect(exactly.value is DataItem)
        let resolver = try resolver(standardInput: Data(count: (1 << 20) + 1), limit: limit, throughPipe: throughPipe)
        let error = await #expect(throws: ShareError.self) { try await resolver.resolve(.standardInput) }
        #expect(error?.kind == .badData)
        #expect(error?.message == "-: standard input is larger than the 1 MiB limit ([limits] stdin=)")
        #expect(spooledNames == [])
    }

    /// A later item that fails takes standard input's file with it.
    @Test func aFailureAfterStandardInputLeavesNothing() async throws {
        let resolver = try resolver(standardInput: Data(count: ItemResolver.inMemoryLimit + 1))
        let error = await #expect(throws: ShareError.self) {
            try await resolver.resolve([.standardInput, .operand("nope.txt")])
        }
        #expect(error?.message == "nope.txt: no such file")
        #expect(spooledNames == [])
    }

    @Test func cancellingWhileStandardInputStaysOpenLeavesNothing() async throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        descriptors += ends
        _ = Data(count: 1000).withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
        let resolver = ItemResolver(currentDirectory: folder.path, standardInput: ends[0], temporaryDirectory: spoolFolder)
        let task = Task { try await resolver.resolve(.standardInput) }
        try await Task.sleep(for: .milliseconds(100))
        task.cancel()
        let error = await #expect(throws: ShareError.self) { try await task.value }
        #expect(error?.kind == .cancelled)
        #expect(spooledNames == [])
    }

    @Test func limitsAreReadAndSaidInTheirUnit() throws {
        #expect(StandardInputLimit.default.description == "4 GiB")
        #expect(StandardInputLimit(parsing: "4G")?.byteCount == 4 << 30)
        #expect(StandardInputLimit(parsing: " 500M ")?.description == "500 MiB")
        #expect(StandardInputLimit(parsing: "64KiB")?.byteCount == 64 << 10)
        #expect(StandardInputLimit(parsing: "2 gb")?.byteCount == 2 << 30)
        #expect(StandardInputLimit(parsing: "1000")?.description == "1000 bytes")
        #expect(StandardInputLimit(parsing: "1000B")?.byteCount == 1000)
        for bad in ["", "G", "0", "-1", "1.5G", "4X", "99999999999T"] {
            #expect(StandardInputLimit(parsing: bad) == nil, "\(bad)")
        }
        #expect(try StandardInputLimit(configuration: .empty) == .default)
        #expect(try StandardInputLimit(configuration: .init(["limits": ["stdin": "16M"]])).byteCount == 16 << 20)
        let error = #expect(throws: ShareError.self) {
            try StandardInputLimit(configuration: .init(["limits": ["stdin": "lots"]]))
        }
        #expect(error?.kind == .configuration)
        #expect(error?.message == "config: [limits] stdin=lots is not a size (such as 4G, 500M or a number of bytes)")
    }

    @Test func aDescriptorIsReadAndSniffedAndKeepsItsName() async throws {
        var pipeEnds: [Int32] = [0, 0]
        #expect(pipe(&pipeEnds) == 0)
        defer { close(pipeEnds[0]) }
        _ = SampleBytes.pdf.withUnsafeBytes { write(pipeEnds[1], $0.baseAddress, $0.count) }
        close(pipeEnds[1])
        let item = try await resolver(standardInput: Data()).resolve(
            .fileDescriptor(pipeEnds[0], name: "../../etc/report.pdf", mimeType: "application/pdf"))
        let data = try #require(item.value as? DataItem)
        #expect(data.filename == "report.pdf")
        #expect(data.type == .pdf)
    }

    @Test func bytesThatSayTextButAreAnImageAreAnImage() async throws {
        let item = try await resolver(standardInput: Data()).resolve(
            .bytes(SampleBytes.png, name: "a.txt", mimeType: "text/plain"))
        #expect(item.value is Image)
    }

    @Test func pathsAreCheckedWithTheirLabel() async throws {
        let name = "a b;c.png"
        try SampleBytes.png.write(to: folder.appendingPathComponent(name))
        let resolver = try resolver(standardInput: Data())
        let item = try await resolver.resolve(.operand(name))
        #expect((item.value as? URL)?.lastPathComponent == name)
        #expect(item.label == name)
        let missing = await #expect(throws: ShareError.self) { try await resolver.resolve(.operand("nope.txt")) }
        #expect(missing?.message == "nope.txt: no such file")
        #expect(missing?.kind == .noInput)
        let directory = await #expect(throws: ShareError.self) { try await resolver.resolve(.operand(".")) }
        #expect(directory?.message == ".: is a folder; give the files in it instead (./*)")
        // An empty word is no item (it used to be the current folder).
        let empty = await #expect(throws: ShareError.self) { try await resolver.resolve(.operand("")) }
        #expect(empty?.message == "an empty argument names no file or link")
        #expect(empty?.kind == .noInput)
    }

    @Test func linksStayLinks() async throws {
        let resolver = try resolver(standardInput: Data())
        #expect((try await resolver.resolve(.operand("https://swift.org")).value as? URL)?.host == "swift.org")
        #expect((try await resolver.resolve(.operand("mailto:ana@example.com")).value as? URL)?.scheme == "mailto")
        let bad = await #expect(throws: ShareError.self) { try await resolver.resolve(.operand("https://")) }
        #expect(bad?.kind == .badData)
    }
}
