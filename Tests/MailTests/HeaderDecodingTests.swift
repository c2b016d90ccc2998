import Foundation
import LocalTestSupport
import Testing

@testable import Mail

/// Header values read back from stored messages (`outbox list`, sending), against what the
/// writer (GMime) encodes.
@Suite("Mail: RFC 2047 header values read back")
struct HeaderDecodingTests {
    @Test("adjacent base64 words of one charset are decoded one by one, padding or not")
    func paddedWords() {
        // GMime 3.2 alone decodes this as "aaaa\u{FFFD}\u{FFFD}": the word after the padding is lost.
        #expect(HeaderDecoding.decodedText("=?UTF-8?B?YWFhYe+/ve+/vQ==?= =?UTF-8?B?YWE=?=") == "aaaa\u{FFFD}\u{FFFD}aa")
        #expect(HeaderDecoding.decodedText("=?UTF-8?B?YWFhYWE=?=\t =?UTF-8?B?YmI=?=") == "aaaaabb")
    }

    @Test("spaces between words that are not both encoded are kept")
    func spaces() {
        #expect(HeaderDecoding.decodedText("Re: =?UTF-8?Q?Gr=C3=BC=C3=9Fe?= aus  K=C3=B6ln") == "Re: Grüße aus  K=C3=B6ln")
        #expect(HeaderDecoding.decodedText("=?UTF-8?Q?caf=C3=A9?= =?us-ascii?Q?ok?= =?bad") == "caféok =?bad")
        #expect(HeaderDecoding.decodedText("=?= plain") == "=?= plain")
    }

    /// Found by `fuzz-mime-headers`: a subject of long runs without spaces, which GMime writes as
    /// base64 words ending in padding, was listed cut short.
    @Test("a long subject without spaces reads back whole after the writer encoded it")
    func longSubjectRoundTrip() throws {
        let input = Data(
            base64Encoded: "SGVsbG9L////////////////////////////////YWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYf///////////////////////////////////2FhYf//YWE=")!
        let subject = String(decoding: input, as: UTF8.self)
        try withMessageFile { descriptor in
            let message = MailMessage(to: ["bo@example.org"], subject: subject, body: "Hello\n")
            let written = try #require(try MessageHeaders.write(message, from: "ana@example.com", to: descriptor))
            #expect(written.subject == subject)
        }
    }

    /// Found by `fuzz-mime-headers` (Tests/Fuzz/corpus/mime-headers/punycode-bcc.bin): the Bcc
    /// `dee@example.xn--com` read back as `dee@example.㯘`. These addresses are the envelope
    /// (MAIL FROM, RCPT TO) when the outbox sends, so an IDN domain went to the server decoded.
    @Test("addresses with an IDN (xn--) domain read back in the ASCII form they were written in")
    func punycodeDomains() throws {
        #expect(HeaderDecoding.addresses(in: "dee@xn--bcher-kva.example") == ["dee@xn--bcher-kva.example"])
        #expect(
            HeaderDecoding.addresses(in: "\"B\" <b@xn--bcher-kva.example>, Team: x@example.xn--com;")
                == ["b@xn--bcher-kva.example", "x@example.xn--com"])

        try withMessageFile { descriptor in
            let message = MailMessage(
                to: ["Bo <bo@xn--bcher-kva.example>"], bcc: ["dee@example.xn--com"], subject: "IDN", body: "Hello\n")
            let written = try #require(try MessageHeaders.write(message, from: "ana@xn--caf-dma.example", to: descriptor))
            #expect(written.to == ["bo@xn--bcher-kva.example"])
            #expect(written.bcc == ["dee@example.xn--com"])
            #expect(HeaderSection.read(descriptor)?.addresses("From") == ["ana@xn--caf-dma.example"])
        }
    }

    /// Calls `body` with an empty message file open for reading and writing, in a folder of its
    /// own that goes afterwards.
    private func withMessageFile(_ body: (Int32) throws -> Void) throws {
        let folder = try TemporaryFolder("header-decoding")
        defer { folder.remove() }
        let descriptor = open(folder.file("message.eml").path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        try body(descriptor)
    }
}
