import Testing

@testable import ShareSheet

/// What a person may type for a choice field (#23): a number, a title, the start of one title,
/// and for a choice that takes free text (AirDrop's HOST[:PORT]) text of its own.
@MainActor
@Suite("typed answers to a choice")
struct TypedChoiceTests {
    private let options = ChoiceOptions([
        .init(id: "org.example.Alpha", title: "Alpha Viewer"), .init(id: "org.example.Beta", title: "Beta Editor"),
        .init(id: "org.example.Better", title: "Better Reader"),
    ])

    private var field: InterfaceField { InterfaceField(id: "application", label: "Application", kind: .choice(options)) }

    @Test func numbersTitlesAndIds() {
        #expect(field.value(fromText: "2") == .choice("org.example.Beta"))
        #expect(field.value(fromText: "beta editor") == .choice("org.example.Beta"))
        #expect(field.value(fromText: "org.example.Alpha") == .choice("org.example.Alpha"))
    }

    @Test func theStartOfOneTitleIsEnough() {
        #expect(field.value(fromText: "alp") == .choice("org.example.Alpha"))
        #expect(field.value(fromText: "Beta") == .choice("org.example.Beta"))
        // "Be" starts two titles: no guess.
        #expect(field.value(fromText: "be") == nil)
        #expect(field.value(fromText: "zeta") == nil)
    }

    @Test func typedTextBecomesAnOptionWhereTheChoiceTakesIt() {
        let devices = ChoiceOptions(streaming: [])
        devices.optionForTypedText = { text in text.contains(".") ? .init(id: text, title: text) : nil }
        let device = InterfaceField(id: "to", label: "Device", kind: .choice(devices), isRequired: true)
        #expect(device.value(fromText: "phone") == nil)
        let typed = device.value(fromText: "192.0.2.7:53317")
        #expect(typed == .choice("192.0.2.7:53317"))
        // It is an option now, so the value passes the field's own check.
        #expect(device.problem(with: typed) == nil)
    }
}
