import Foundation
import Testing

@testable import Mail

/// In-memory attachments become real files before a `mailto:` hand-off names them.
@Suite("Mail: mailto: in-memory attachments")
struct MailtoMaterializeTests {
    @Test("data attachments are written to named files whose bytes match, and attach= names those files")
    func dataBecomesFiles() throws {
        let bytes = Data((0..<5000).map { UInt8($0 % 251) })
        let message = MailMessage(
            to: ["ana@example.com"], cc: [], bcc: [], subject: "s", body: "b", htmlBody: nil,
            attachments: [
                MailAttachment(content: .data(bytes), filename: "a b;c.png", mimeType: "image/png"),
                MailAttachment(content: .data(Data("x".utf8)), filename: "../evil/a b;c.png", mimeType: "text/plain"),
            ])
        let written = try MailHandOff.materialized(message)
        let paths = written.attachments.compactMap { attachment -> URL? in
            if case .file(let url) = attachment.content { return url }
            return nil
        }
        #expect(paths.count == 2)
        defer { if let folder = paths.first?.deletingLastPathComponent() { try? FileManager.default.removeItem(at: folder) } }
        #expect(paths.map(\.lastPathComponent) == ["a b;c.png", ".._evil_a b;c.png"])
        #expect(Set(paths.map { $0.deletingLastPathComponent().path }).count == 1)
        #expect(try Data(contentsOf: paths[0]) == bytes)
        let link = MailHandOff.url(for: written, attachInURL: true)
        let attach = link.components(separatedBy: "&").filter { $0.hasPrefix("attach=") }
            .map { String($0.dropFirst("attach=".count)).removingPercentEncoding }
        #expect(attach == paths.map(\.path), "\(link)")
        #expect(MailHandOff.acceptsAttachments(handlerID: "org.gnome.Evolution.desktop"))
        #expect(!MailHandOff.acceptsAttachments(handlerID: "org.mozilla.Thunderbird.desktop"))
        #expect(!MailHandOff.acceptsAttachments(handlerID: nil))
    }
}
