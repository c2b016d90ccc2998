import Testing

@testable import ShareSheetSystem

@Suite struct SuggestionTests {
    @Test func closestNamesAndPhrases() {
        #expect(Suggestions.closest(to: "mial", among: ["mail", "message", "print"]) == ["mail"])
        #expect(Suggestions.closest(to: "photo", among: ["photos", "print"]) == ["photos"])
        #expect(Suggestions.closest(to: "xyzzy", among: ["mail", "copy"]).isEmpty)
        #expect(Suggestions.phrase(["a", "b", "c"]) == "'a', 'b' or 'c'")
        #expect(Suggestions.editDistance("mial", "mail") == 1)
    }
}
