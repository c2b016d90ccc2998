import Foundation
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

@Suite struct ItemResolverTests {
    private func resolver(standardInput: Data) -> ItemResolver {
        ItemResolver(currentDirectory: "/", readStandardInput: { standardInput })
    }

    @Test func pipedImagesArePicturesNotData() throws {
        for (bytes, type) in [(SampleBytes.png, UTType.png), (SampleBytes.jpeg, UTType.jpeg)] {
            let item = try resolver(standardInput: bytes).resolve(.standardInput)
            let image = try #require(item.value as? Image, "\(type.identifier) came out as \(item.value)")
            #expect(image.type == type)
            #expect(item.label == "-")
            #expect(ItemKind.of(item.value) == .image(type))
        }
    }

    @Test func pipedPDFIsANamedPDFDocument() throws {
        let item = try resolver(standardInput: SampleBytes.pdf).resolve(.standardInput)
        let data = try #require(item.value as? DataItem)
        #expect(data.type == .pdf)
        #expect(data.filename == "stdin.pdf")
        #expect(ItemKind.of(item.value) == .data(.pdf, declared: true))
    }

    @Test func pipedTextIsTextWithoutTheLastNewline() throws {
        let item = try resolver(standardInput: Data("see you at 6\n".utf8)).resolve(.standardInput)
        #expect(item.value as? String == "see you at 6")
    }

    @Test func emptyInputNamesTheItem() {
        let error = #expect(throws: ShareError.self) { try resolver(standardInput: Data()).resolve(.standardInput) }
        #expect(error?.kind == .noInput)
        #expect(error?.message == "-: standard input is empty")
    }

    @Test func standardInputOnlyOnce() {
        let error = #expect(throws: ShareError.self) {
            try resolver(standardInput: Data("x".utf8)).resolve([.standardInput, .standardInput])
        }
        #expect(error?.kind == .usage)
    }

    @Test func aDescriptorIsReadAndSniffedAndKeepsItsName() throws {
        var pipeEnds: [Int32] = [0, 0]
        #expect(pipe(&pipeEnds) == 0)
        defer { close(pipeEnds[0]) }
        _ = SampleBytes.pdf.withUnsafeBytes { write(pipeEnds[1], $0.baseAddress, $0.count) }
        close(pipeEnds[1])
        let item = try resolver(standardInput: Data()).resolve(
            .fileDescriptor(pipeEnds[0], name: "../../etc/report.pdf", mimeType: "application/pdf"))
        let data = try #require(item.value as? DataItem)
        #expect(data.filename == "report.pdf")
        #expect(data.type == .pdf)
    }

    @Test func bytesThatSayTextButAreAnImageAreAnImage() throws {
        let item = try resolver(standardInput: Data()).resolve(.bytes(SampleBytes.png, name: "a.txt", mimeType: "text/plain"))
        #expect(item.value is Image)
    }

    @Test func pathsAreCheckedWithTheirLabel() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("resolver-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = "a b;c.png"
        try SampleBytes.png.write(to: folder.appendingPathComponent(name))
        let resolver = ItemResolver(currentDirectory: folder.path, readStandardInput: { Data() })
        let item = try resolver.resolve(.operand(name))
        #expect((item.value as? URL)?.lastPathComponent == name)
        #expect(item.label == name)
        let missing = #expect(throws: ShareError.self) { try resolver.resolve(.operand("nope.txt")) }
        #expect(missing?.message == "nope.txt: no such file")
        #expect(missing?.kind == .noInput)
        let directory = #expect(throws: ShareError.self) { try resolver.resolve(.operand(".")) }
        #expect(directory?.message == ".: is a directory")
    }

    @Test func linksStayLinks() throws {
        let resolver = resolver(standardInput: Data())
        #expect((try resolver.resolve(.operand("https://swift.org")).value as? URL)?.host == "swift.org")
        #expect((try resolver.resolve(.operand("mailto:ana@example.com")).value as? URL)?.scheme == "mailto")
        let bad = #expect(throws: ShareError.self) { try resolver.resolve(.operand("https://")) }
        #expect(bad?.kind == .badData)
    }
}
