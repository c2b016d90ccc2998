import Foundation
import Testing

@testable import Sharing

/// The JSON every `--json` prints: sorted keys, and with `--pretty` empty containers written
/// `[]` and `{}` (Foundation on Linux wrote "[\n\n  ]").
@Suite("JSON style")
struct JSONStyleTextTests {
    private struct Listing: Encodable {
        var items: [String] = []
        var fields: [String: String] = [:]
        var name = "a [\\n] b"
    }

    @Test func emptyContainersStayOnOneLine() throws {
        let pretty = try JSONStyle.text(Listing(), pretty: true)
        #expect(pretty.contains("\"items\" : []"), "\(pretty)")
        #expect(pretty.contains("\"fields\" : {}"), "\(pretty)")
        // A string holding brackets is left as it is.
        #expect(pretty.contains(#""name" : "a [\\n] b""#), "\(pretty)")
        let parsed = try JSONSerialization.jsonObject(with: Data(pretty.utf8)) as? [String: Any]
        #expect((parsed?["items"] as? [Any])?.isEmpty == true)
        #expect(try JSONStyle.text(Listing()) == #"{"fields":{},"items":[],"name":"a [\\n] b"}"#)
    }
}
