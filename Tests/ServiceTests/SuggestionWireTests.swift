import Testing

import GVariants
import ShareServiceProtocol

/// The suggestions' part of the wire format (SPEC §11, §12): `ListSuggestions`' reply and
/// `Share`'s `suggestion` option round-trip, read what a C or Python caller writes, and refuse a
/// malformed suggestion saying what is wrong.
@Suite("Wire format: suggestions")
struct SuggestionWireTests {
    static let suggestions: [WireSuggestion] = [
        WireSuggestion(
            id: "mail:ana@example.com", activity: "mail", activityType: "com.apple.UIKit.activity.Mail", title: "Ana Lima",
            subtitle: "Mail · ana@example.com", iconName: "avatar-default", photo: "/home/me/.local/share/contacts/ana.jpg",
            presets: ["to": "ana@example.com"]),
        WireSuggestion(
            id: "airdrop:ab12", activity: "airdrop", activityType: "com.apple.UIKit.activity.AirDrop", title: "Ana's Pixel",
            subtitle: "AirDrop", iconName: "phone", presets: ["to": "AB12", "fingerprint": "AB12"]),
        WireSuggestion(
            id: "target:org.example.Notes", activity: "org.example.Notes", activityType: "org.sharesheet.target.org.example.Notes",
            title: "Notes ü", iconName: ""),
    ]

    private func parsed(_ text: String) throws -> GVariant {
        try #require(GVariant.parse(text), "GVariant text: \(text)")
    }

    @Test("ListSuggestions' reply: encode then decode gives it back, as (aa{sv})")
    func listingRoundTrip() throws {
        for listing in [[], Self.suggestions] {
            let encoded = WireSuggestionListing.encode(listing)
            #expect(encoded.typeString == "(aa{sv})")
            #expect(try WireSuggestionListing.decode(encoded) == listing)
            #expect(try WireSuggestion.decode(encoded.children[0]) == listing)
        }
    }

    @Test("every key of a suggestion is there with its type, empty when it has nothing to say")
    func everyKeyWithItsType() throws {
        let encoded = try #require(Self.suggestions.last).encode()
        let types = Dictionary(uniqueKeysWithValues: (encoded.entries ?? []).map { ($0.key, $0.value.typeString) })
        #expect(
            types == [
                "id": "s", "activity": "s", "activity-type": "s", "title": "s", "subtitle": "s", "icon-name": "s", "photo": "s",
                "presets": "a{ss}",
            ])
        #expect(encoded.lookup("photo")?.string == "")
        #expect(encoded.lookup("presets")?.stringPairs?.isEmpty == true)
    }

    @Test("the suggestion option of Share: encode then decode gives it back, beside the others")
    func optionRoundTrip() throws {
        for options in [
            WireOptions(suggestion: "mail:ana@example.com"),
            WireOptions(handleToken: "t", activity: "mail", interactive: false, suggestion: "mail:ana@example.com"),
        ] {
            let encoded = options.encode()
            #expect(encoded.lookup("suggestion")?.string == "mail:ana@example.com")
            #expect(try WireOptions(decoding: encoded) == options)
        }
        #expect(WireOptions().encode().lookup("suggestion") == nil, "left out when not given")
    }

    @Test("a suggestion and the option as a caller writes them: the optional keys may be left out, unknown ones are ignored")
    func handMade() throws {
        let reply = try parsed(
            "([{'id': <'mail:bo@example.com'>, 'activity': <'mail'>, 'activity-type': <'com.apple.UIKit.activity.Mail'>,"
                + " 'title': <'bo@example.com'>, 'presets': <{'to': 'bo@example.com'}>, 'score': <0.5>}],)")
        #expect(
            try WireSuggestionListing.decode(reply) == [
                WireSuggestion(
                    id: "mail:bo@example.com", activity: "mail", activityType: "com.apple.UIKit.activity.Mail",
                    title: "bo@example.com", iconName: "", presets: ["to": "bo@example.com"])
            ])
        let options = try parsed("{'suggestion': <'mail:bo@example.com'>, 'interactive': <false>}")
        #expect(try WireOptions(decoding: options) == WireOptions(interactive: false, suggestion: "mail:bo@example.com"))
    }

    @Test(
        "malformed suggestions and options are refused, saying which suggestion or option and what it should be",
        arguments: [
            ("[{'id': <'a'>, 'activity': <'copy'>, 'activity-type': <'t'>}]", "suggestion 1: title is missing"),
            (
                "[{'id': <'a'>, 'activity': <'mail'>, 'activity-type': <'t'>, 'title': <'A'>},"
                    + " {'id': <'b'>, 'activity': <'mail'>, 'activity-type': <'t'>, 'title': <'B'>, 'presets': <['to']>}]",
                "suggestion 2: presets must be of type a{ss}, not as"
            ),
            ("[{'id': <7>, 'activity': <'mail'>, 'activity-type': <'t'>, 'title': <'A'>}]", "suggestion 1: id must be of type s, not i"),
            ("['mail:ana@example.com']", "suggestions must be of type aa{sv}, not as"),
        ])
    func malformed(text: String, message: String) throws {
        #expect(throws: WireError(message)) { try WireSuggestion.decode(try parsed(text)) }
    }

    @Test("a reply that is not (aa{sv}) and an option of the wrong type are refused")
    func malformedReplyAndOption() throws {
        #expect(throws: WireError("the reply must be of type (aa{sv}), not (as)")) {
            try WireSuggestionListing.decode(try parsed("(['mail'],)"))
        }
        #expect(throws: WireError("option suggestion must be of type s, not i")) {
            try WireOptions(decoding: try parsed("{'suggestion': <42>}"))
        }
    }
}
