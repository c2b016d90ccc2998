import Testing

import GVariants
import ShareServiceProtocol

/// The wire format (SPEC §8, §11): every message encodes to the type the interface gives it,
/// decodes back to the same value, reads variants written by hand (as a C or Python caller
/// writes them), and refuses a malformed one saying what is wrong.
@Suite("Wire format")
struct WireFormatTests {
    static let items: [[WireItem]] = [
        [.text("hi")],
        [.uri("https://swift.org"), .text(""), .file(descriptor: 0, name: "sunset.jpg", mimeType: "image/jpeg")],
        [.file(descriptor: 3, name: nil, mimeType: nil), .file(descriptor: 1, name: "notes ü.txt", mimeType: nil)],
        [],
    ]

    static let options: [WireOptions] = [
        WireOptions(),
        WireOptions(handleToken: "t1", interactive: false),
        WireOptions(
            handleToken: "share_1", subject: "Holiday", fields: [.init("to", "a@example.org,b@example.org"), .init("cc", "")],
            excludedActivities: ["mail", "com.apple.UIKit.activity.Print"], activity: "copy", interactive: true,
            customActions: [.init(id: "copy-link", title: "Copy Link", iconName: "edit-copy"), .init(id: "x", title: "X")]),
        {
            var choosing = WireOptions(activity: "mail")
            choosing.chooseItems = false
            choosing.sentItems = [0, 2]
            choosing.imageSize = "small"
            choosing.keepLocation = true
            return choosing
        }(),
    ]

    static let activities: [WireActivity] = [
        WireActivity(
            activity: "copy", activityType: "com.apple.UIKit.activity.CopyToPasteboard", title: "Copy", iconName: "edit-copy",
            category: "action", available: true),
        WireActivity(
            activity: "photos", activityType: "com.apple.UIKit.activity.SaveToCameraRoll", title: "Save Image",
            iconName: "folder-pictures", category: "action", available: false, reason: "it takes images only, and got text"),
        WireActivity(
            activity: "flickr", activityType: "com.apple.UIKit.activity.PostToFlickr", title: "Flickr", iconName: "",
            category: "share", available: false, reason: "Flickr has no web share page, so it needs an account",
            reasonSetting: "accounts.flickr", reasonFix: "add-account", reasonPath: "/home/me/.config/sharesheet/accounts"),
    ]

    static let results: [WireResults] = [
        WireResults(completed: true),
        WireResults(
            activity: "photos", activityType: "com.apple.UIKit.activity.SaveToCameraRoll", completed: true, disposition: "saved",
            location: "/home/me/Pictures/sunset.jpg", returnedItems: ["a", "b"]),
        WireResults(
            activity: "mail", activityType: "com.apple.UIKit.activity.Mail", completed: false, disposition: "queued",
            fallbackMessage: "no mail server", fallbackHint: "set [mail] server"),
        WireResults(
            activity: "mail", completed: false, disposition: "failed", errorCode: "usage", errorMessage: "Mail needs a recipient",
            errorField: "to", errorSetting: "mail.server", errorHint: "give To"),
        WireResults(
            activity: "mail", completed: false, disposition: "failed", errorCode: "configuration",
            errorMessage: "Mail: mx does not offer STARTTLS", errorSetting: "mail.starttls",
            errorHint: "Allow mail without STARTTLS.", errorFix: "choose-mail-security", errorPath: "/home/me/.config/sharesheet/config"),
        WireResults(
            activity: "airdrop", completed: false, disposition: "cancelled", errorCode: "cancelled", errorMessage: "dismissed",
            kept: "small.txt (1 of 2)", keptLocation: "Desk Laptop"),
        WireResults(
            activity: "mail", completed: false, disposition: "cancelled", kept: "the message",
            keptLocation: "/home/me/.local/share/sharesheet/Outbox/new/1", keptResume: "outbox"),
    ]

    // MARK: Round trips

    @Test("items: encode then decode gives them back, as aa{sv}", arguments: items)
    func itemsRoundTrip(items: [WireItem]) throws {
        let encoded = WireItem.encode(items)
        #expect(encoded.typeString == "aa{sv}")
        #expect(try WireItem.decode(encoded) == items)
    }

    @Test("options: encode then decode gives them back, as a{sv}", arguments: options)
    func optionsRoundTrip(options: WireOptions) throws {
        let encoded = options.encode()
        #expect(encoded.typeString == "a{sv}")
        #expect(try WireOptions(decoding: encoded) == options)
    }

    @Test("ListActivities' listing: encode then decode gives it back, as (aa{sv})")
    func listingRoundTrip() throws {
        for listing in [[], Self.activities] {
            let encoded = WireListing.encode(listing)
            #expect(encoded.typeString == "(aa{sv})")
            #expect(try WireListing.decode(encoded) == listing)
        }
    }

    @Test("Response: encode then decode gives it back, as (ua{sv})", arguments: results)
    func responseRoundTrip(results: WireResults) throws {
        let response = WireResponse(response: results.completed == true ? 0 : 2, results: results)
        let encoded = response.encode()
        #expect(encoded.typeString == "(ua{sv})")
        #expect(try WireResponse(decoding: encoded) == response)
    }

    @Test("the calls' arguments: ListActivities (aa{sv}a{sv}), Share (saa{sv}a{sv})")
    func callsRoundTrip() throws {
        for (items, options) in zip(Self.items, Self.options + [WireOptions()]) {
            let list = WireItemsCall(items: items, options: options)
            #expect(list.encode().typeString == "(aa{sv}a{sv})")
            #expect(try WireItemsCall(decoding: list.encode()) == list)
            let share = WireShareCall(parentWindow: "x11:0x2a", items: items, options: options)
            #expect(share.encode().typeString == "(saa{sv}a{sv})")
            #expect(try WireShareCall(decoding: share.encode()) == share)
        }
    }

    // MARK: Hand-made variants

    private func parsed(_ text: String) throws -> GVariant {
        try #require(GVariant.parse(text), "GVariant text: \(text)")
    }

    @Test("items as a caller writes them: text, uri, fd with and without name and type")
    func handMadeItems() throws {
        let value = try parsed(
            "[{'text': <'hi'>}, {'uri': <'https://swift.org'>}, {'fd': <handle 0>, 'name': <'a.png'>, 'mime-type': <'image/png'>},"
                + " {'fd': <handle 1>, 'extra': <42>}]")
        #expect(
            try WireItem.decode(value) == [
                .text("hi"), .uri("https://swift.org"), .file(descriptor: 0, name: "a.png", mimeType: "image/png"),
                .file(descriptor: 1, name: nil, mimeType: nil),
            ])
    }

    @Test("options as a caller writes them, unknown keys ignored")
    func handMadeOptions() throws {
        let value = try parsed(
            "{'handle_token': <'t'>, 'fields': <{'to': 'a@b.c'}>, 'excluded-activities': <['mail']>, 'interactive': <false>,"
                + " 'custom-actions': <[('id', 'Title', '')]>, 'parent': <'ignored'>}")
        #expect(
            try WireOptions(decoding: value)
                == WireOptions(
                    handleToken: "t", fields: [.init("to", "a@b.c")], excludedActivities: ["mail"], interactive: false,
                    customActions: [.init(id: "id", title: "Title")]))
    }

    @Test("a Response as gdbus would print it, and results with keys of a newer service")
    func handMadeResponse() throws {
        let value = try parsed(
            "(uint32 2, {'completed': <false>, 'error-code': <'unavailable'>, 'error-message': <'no printer'>, 'error-setting': <'printing.printer'>, 'new-key': <1>})")
        #expect(
            try WireResponse(decoding: value)
                == WireResponse(
                    response: 2,
                    results: WireResults(
                        completed: false, errorCode: "unavailable", errorMessage: "no printer", errorSetting: "printing.printer")))
    }

    // MARK: Malformed

    @Test(
        "malformed messages are refused, saying which item, option or key and what it should be",
        arguments: [
            ("[{'text': <'a'>, 'uri': <'b'>}]", "item 1: give exactly one of text, uri or fd (it has keys text, uri)"),
            ("[{'text': <'a'>}, {}]", "item 2: give exactly one of text, uri or fd (it has no keys)"),
            ("[{'text': <42>}]", "item 1: text must be of type s, not i"),
            ("[{'fd': <'0'>}]", "item 1: fd must be of type h, not s"),
            ("[{'fd': <handle 0>, 'name': <5>}]", "item 1: name must be of type s, not i"),
            ("['text']", "items must be of type aa{sv}, not as"),
        ])
    func malformedItems(text: String, message: String) throws {
        #expect(throws: WireError(message)) { try WireItem.decode(try parsed(text)) }
    }

    @Test(
        "malformed options are refused",
        arguments: [
            ("{'subject': <42>}", "option subject must be of type s, not i"),
            ("{'interactive': <'no'>}", "option interactive must be of type b, not s"),
            ("{'fields': <['to']>}", "option fields must be of type a{ss}, not as"),
            ("{'excluded-activities': <'mail'>}", "option excluded-activities must be of type as, not s"),
            ("{'custom-actions': <[('', 'Title', '')]>}", "custom-actions: each needs an id and a title"),
            ("{'custom-actions': <[('id', 'Title')]>}", "option custom-actions must be of type a(sss), not a(ss)"),
        ])
    func malformedOptions(text: String, message: String) throws {
        #expect(throws: WireError(message)) { try WireOptions(decoding: try parsed(text)) }
    }

    @Test("malformed listings and Responses are refused")
    func malformedReplies() throws {
        #expect(throws: WireError("activity 1: title is missing")) {
            try WireListing.decode(try parsed("([{'activity': <'copy'>, 'activity-type': <'t'>, 'category': <'action'>, 'available': <true>}],)"))
        }
        #expect(throws: WireError("activity 1: available must be of type b, not s")) {
            try WireActivity.decode(
                try parsed("[{'activity': <'copy'>, 'activity-type': <'t'>, 'title': <'Copy'>, 'category': <'action'>, 'available': <'yes'>}]"))
        }
        #expect(throws: WireError("the reply must be of type (aa{sv}), not (as)")) { try WireListing.decode(try parsed("(['copy'],)")) }
        #expect(throws: WireError("results: completed must be of type b, not s")) {
            try WireResponse(decoding: try parsed("(uint32 0, {'completed': <'yes'>})"))
        }
        #expect(throws: WireError("Response must be of type (ua{sv}), not (u)")) { try WireResponse(decoding: try parsed("(uint32 0,)")) }
        #expect(throws: WireError("the arguments must be of type (saa{sv}a{sv}), not (aa{sv}a{sv})")) {
            try WireShareCall(decoding: WireItemsCall(items: [.text("hi")]).encode())
        }
    }

    @Test("a valid handle_token is found even when the rest of the options is malformed")
    func tokenOfMalformedOptions() throws {
        #expect(WireOptions.validToken(in: try parsed("{'handle_token': <'ok_1'>, 'subject': <1>}")) == "ok_1")
        #expect(WireOptions.validToken(in: try parsed("{'handle_token': <'not/ok'>}")) == nil)
        #expect(WireOptions.validToken(in: try parsed("{'handle_token': <1>}")) == nil)
    }
}
