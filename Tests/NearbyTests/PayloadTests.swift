import Foundation
import LocalTestSupport
import ShareSheet
import Testing

@testable import Nearby

@Suite("Addresses given by hand")
struct DirectAddressTests {
    @Test("HOST, HOST:PORT and [IPv6]:PORT are addresses; aliases and fingerprints are not")
    func parsing() {
        #expect(DirectAddress.parse("10.0.0.2")! == ("10.0.0.2", 53317))
        #expect(DirectAddress.parse("10.0.0.2:4000")! == ("10.0.0.2", 4000))
        #expect(DirectAddress.parse("[fe80::1]:4000")! == ("fe80::1", 4000))
        #expect(DirectAddress.parse("phone.local")! == ("phone.local", 53317))
        #expect(DirectAddress.parse("Alice's phone") == nil)
        #expect(DirectAddress.parse(String(repeating: "AB", count: 32)) == nil)
        #expect(DirectAddress.parse("10.0.0.2:http") == nil)
    }
}

@Suite("Names a sender gives")
struct SafeNameTests {
    @Test("path parts, dots and hidden names are taken out; NUL and control characters replaced visibly")
    func names() {
        #expect(NearbyReceiver.safeName("../escape.txt") == "escape.txt")
        #expect(NearbyReceiver.safeName("/etc/passwd") == "passwd")
        #expect(NearbyReceiver.safeName("C:\\Users\\x\\y.txt") == "y.txt")
        #expect(NearbyReceiver.safeName("sub/../x\u{0}y\u{7}.txt") == "x\u{FFFD}y\u{FFFD}.txt")
        #expect(NearbyReceiver.safeName("\u{1B}[31mred\u{9B}\u{202E}txt.exe") == "\u{FFFD}[31mred\u{FFFD}\u{FFFD}txt.exe")
        #expect(NearbyReceiver.printable("Desk\u{1B}]0;x\u{7}\nnext", keepingLines: true) == "Desk\u{FFFD}]0;x\u{FFFD}\nnext")
        #expect(NearbyReceiver.safeName("..") == "file")
        #expect(NearbyReceiver.safeName("") == "file")
        #expect(NearbyReceiver.safeName("a/") == "a")
        #expect(NearbyReceiver.safeName(".bashrc") == "bashrc")
        #expect(NearbyReceiver.safeName("a b;c.png") == "a b;c.png")
        #expect(NearbyReceiver.safeName(String(repeating: "é", count: 300)).utf8.count <= 200)
    }

    @Test("a taken name is numbered, never replaced")
    func uniqueNames() throws {
        let folder = try TemporaryFolder.make("nearby-names")
        defer { TemporaryFolder(existing: folder).remove() }
        try Data("old".utf8).write(to: folder.appendingPathComponent("photo.jpg"))
        let temporary = folder.appendingPathComponent(".x.sharesheet-part")
        try Data("new".utf8).write(to: temporary)
        let final = try #require(NearbyReceiver.claimUniqueName("photo.jpg", in: folder, from: temporary))
        #expect(final.lastPathComponent == "photo 2.jpg")
        #expect(try Data(contentsOf: folder.appendingPathComponent("photo.jpg")) == Data("old".utf8))
        #expect(!FileManager.default.fileExists(atPath: temporary.path))
    }
}

@MainActor
@Suite("What each item becomes")
struct PayloadTests {
    @Test("text, links, files, typed data, arrays")
    func payloads() throws {
        func describe(_ payloads: [NearbyPayload]) -> [String] {
            payloads.map { payload in
                switch payload {
                case .text(let text): return "text:\(text)"
                case .file(let url): return "file:\(url.lastPathComponent)"
                case .data(let data, let name, let type): return "data:\(name):\(type):\(data.count)"
                }
            }
        }
        #expect(describe(try AirDropActivity.payloads(for: "hi")) == ["text:hi"])
        #expect(describe(try AirDropActivity.payloads(for: AttributedString("bold"))) == ["text:bold"])
        #expect(describe(try AirDropActivity.payloads(for: URL(string: "https://swift.org")!)) == ["text:https://swift.org"])
        #expect(describe(try AirDropActivity.payloads(for: URL(fileURLWithPath: "/tmp/a b.pdf"))) == ["file:a b.pdf"])
        let item = DataItem(data: Data("x,y".utf8), filename: "t.csv", typeIdentifier: "public.comma-separated-values-text")
        #expect(describe(try AirDropActivity.payloads(for: item)) == ["data:t.csv:text/csv:3"])
        #expect(describe(try AirDropActivity.payloads(for: ["a", URL(string: "https://b.example")!] as [Any])) == ["text:a", "text:https://b.example"])
    }
}

@MainActor
@Suite("Thumbnails travel as LocalSend previews")
struct PreviewPayloadTests {
    /// A 1×1 PNG.
    static let pngData = Data(
        base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")!

    static func sender() -> NearbySender {
        let identity = NearbyIdentity(
            certificate: URL(fileURLWithPath: "/nonexistent/cert.pem"), key: URL(fileURLWithPath: "/nonexistent/key.pem"),
            fingerprint: "OURS")
        let info = DeviceInfo(alias: "Ana", deviceModel: "Pixel", deviceType: "mobile", fingerprint: "A1", port: 53317, protocol: "https")
        return NearbySender(
            device: NearbyDevice(info: info, host: "127.0.0.1"), identity: identity, settings: NearbySettings(environment: [:]))
    }

    @Test("a source's thumbnail becomes the file offer's preview, a data: URL of the image, in the prepare-upload body")
    func thumbnailInOffer() throws {
        let thumbnail = try #require(Image(data: Self.pngData))
        let folder = try TemporaryFolder.make("nearby-preview")
        defer { TemporaryFolder(existing: folder).remove() }
        let photo = folder.appendingPathComponent("photo.png")
        try Self.pngData.write(to: photo)
        let pdf = folder.appendingPathComponent("paper.pdf")
        try Data("%PDF-1.4\n".utf8).write(to: pdf)
        let notes = DataItem(data: Data("x,y".utf8), filename: "t.csv", typeIdentifier: "public.comma-separated-values-text")

        // The items as AirDrop receives them, with the thumbnails the sheet lined up: the photo
        // and the CSV have one, the PDF none.
        let (payloads, previews) = try AirDropActivity.outgoing(for: [photo, pdf, notes], thumbnails: [thumbnail, nil, thumbnail])
        let expected = "data:image/png;base64," + Self.pngData.base64EncodedString()
        #expect(previews == [expected, nil, expected])

        let offers = try Self.sender().describe(payloads, previews: previews).map(\.offer)
        #expect(offers.map(\.fileName) == ["photo.png", "paper.pdf", "t.csv"])
        #expect(offers[0].preview == expected)
        #expect(offers[1].preview == nil)
        // A text file's preview would be its text: a receiver takes one text offer with a preview for a message.
        #expect(offers[2].fileType == "text/csv")
        #expect(offers[2].preview == nil)

        let request = PrepareUploadRequest(
            info: DeviceInfo(alias: "Us", deviceModel: "Linux", deviceType: "desktop", fingerprint: "OURS", port: 53317, protocol: "https"), files: Dictionary(uniqueKeysWithValues: offers.map { ($0.id, $0) }))
        let body = try #require(String(data: try JSONEncoder.localSend().encode(request), encoding: .utf8))
        #expect(body.contains("\"preview\":\"\(expected)\""))
        let decoded = try JSONDecoder().decode(PrepareUploadRequest.self, from: Data(body.utf8))
        let sent = try #require(decoded.files.values.first { $0.fileName == "photo.png" }?.preview)
        #expect(Data(base64Encoded: String(sent.dropFirst("data:image/png;base64,".count))) == Self.pngData)
    }

    @Test("no preview without a thumbnail, for an array's parts, or for a thumbnail too big to be one; a lone text keeps its text")
    func noPreview() throws {
        let thumbnail = try #require(Image(data: Self.pngData))
        let huge = Image(data: Data(count: AirDropActivity.maximumPreviewBytes + 1), type: .png)
        let (payloads, previews) = try AirDropActivity.outgoing(
            for: [URL(fileURLWithPath: "/tmp/a.pdf"), ["b", "c"] as [Any], URL(fileURLWithPath: "/tmp/d.png")],
            thumbnails: [nil, thumbnail, huge])
        #expect(payloads.count == 4)
        #expect(previews == [nil, nil, nil, nil])

        let text = try Self.sender().describe([.text("hello")], previews: ["data:image/png;base64,AAAA"]).map(\.offer)
        #expect(text.first?.preview == "hello")
    }
}

@Suite("Devices as discovery reports them")
struct DeviceStreamTests {
    @Test("each device is reported once, again only when what it says changes")
    func reportsNewAndChanged() {
        let identity = NearbyIdentity(
            certificate: URL(fileURLWithPath: "/nonexistent/cert.pem"), key: URL(fileURLWithPath: "/nonexistent/key.pem"),
            fingerprint: "OURS")
        let seen = Locked<[String]>([])
        let discovery = NearbyDiscovery(settings: NearbySettings(environment: [:]), identity: identity) { device in
            seen.withLock { $0.append("\(device.info.alias)@\(device.host)") }
        }
        func info(_ alias: String, _ fingerprint: String, announce: Bool?) -> DeviceInfo {
            DeviceInfo(alias: alias, deviceModel: "Pixel", deviceType: "mobile", fingerprint: fingerprint, port: 53317, protocol: "https", announce: announce)
        }
        discovery.record(NearbyDevice(info: info("Ana", "A1", announce: true), host: "10.0.0.5"))
        discovery.record(NearbyDevice(info: info("Ana", "A1", announce: false), host: "10.0.0.5"))
        discovery.record(NearbyDevice(info: info("Bo", "B2", announce: true), host: "10.0.0.6"))
        discovery.record(NearbyDevice(info: info("Ana's Pixel", "A1", announce: nil), host: "10.0.0.5"))
        #expect(seen.withLock { $0 } == ["Ana@10.0.0.5", "Bo@10.0.0.6", "Ana's Pixel@10.0.0.5"])
        #expect(discovery.device(named: "a1")?.info.alias == "Ana's Pixel")
        #expect(discovery.device(named: "bo")?.host == "10.0.0.6")
        discovery.stop()
        discovery.record(NearbyDevice(info: info("Cy", "C3", announce: true), host: "10.0.0.7"))
        #expect(seen.withLock { $0 }.count == 3)
    }
}
