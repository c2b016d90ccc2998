import ShareSheet
import Sharing
import Testing

/// How a suggestion is said and drawn: the name a screen reader speaks, and an avatar's initials.
@Suite struct SuggestionNamesTests {
    private func suggestion(_ title: String, _ type: ActivityType = .mail) -> ActivitySuggestion {
        ActivitySuggestion(id: "x", activityType: type, title: title, iconName: "avatar-default", presets: [:])
    }

    @Test func spokenAsTheActivityToItsTarget() {
        #expect(SuggestionNames.spoken(suggestion("Ana Lima"), activityTitle: "Mail") == "Mail to Ana Lima")
        #expect(SuggestionNames.spoken(suggestion("Ana's Pixel", .airDrop), activityTitle: "AirDrop") == "AirDrop to Ana's Pixel")
        #expect(SuggestionNames.spoken(suggestion("ana@example.com"), activityTitle: "Mail") == "Mail to ana@example.com")
    }

    @Test func anActivityThatTrailsOffContinuesWithItsTarget() {
        #expect(SuggestionNames.spoken(suggestion("Image Viewer", .openIn), activityTitle: "Open In…") == "Open In Image Viewer")
        #expect(SuggestionNames.spoken(suggestion("Image Viewer", .openIn), activityTitle: "Open In...") == "Open In Image Viewer")
    }

    @Test func aTargetSuggestedAsItselfIsSaidOnce() {
        let target = ActivityType("org.sharesheet.target.telegram")
        #expect(SuggestionNames.spoken(suggestion("Telegram", target), activityTitle: "Telegram") == "Telegram")
        #expect(SuggestionNames.spoken(suggestion("  "), activityTitle: "Mail") == "Mail")
    }

    @Test func initialsOfANameAreItsFirstAndLastWords() {
        #expect(SuggestionNames.initials(of: "Ana Lima") == "AL")
        #expect(SuggestionNames.initials(of: "ana maria de lima") == "AL")
        #expect(SuggestionNames.initials(of: "Bo") == "B")
        #expect(SuggestionNames.initials(of: "Émile Zola") == "ÉZ")
    }

    @Test func initialsOfAnAddressComeFromItsLocalPart() {
        #expect(SuggestionNames.initials(of: "ana@example.com") == "A")
        #expect(SuggestionNames.initials(of: "bo.silva@example.com") == "BS")
    }

    @Test func noLetterNoInitials() {
        #expect(SuggestionNames.initials(of: "+351 912 345 678") == nil)
        #expect(SuggestionNames.initials(of: "") == nil)
    }
}
