import ShareSheet
import Testing

@Suite("Activity types and defaults")
struct ActivityTypeTests {
    @Test("all 20 UIKit constants keep Apple's raw values")
    func rawValues() {
        let expected: [(ActivityType, String)] = [
            (.postToFacebook, "PostToFacebook"), (.postToTwitter, "PostToTwitter"), (.postToWeibo, "PostToWeibo"),
            (.message, "Message"), (.mail, "Mail"), (.print, "Print"), (.copyToPasteboard, "CopyToPasteboard"),
            (.assignToContact, "AssignToContact"), (.saveToCameraRoll, "SaveToCameraRoll"),
            (.addToReadingList, "AddToReadingList"), (.postToFlickr, "PostToFlickr"), (.postToVimeo, "PostToVimeo"),
            (.postToTencentWeibo, "TencentWeibo"), (.airDrop, "AirDrop"), (.openInIBooks, "OpenInIBooks"),
            (.markupAsPDF, "MarkupAsPDF"), (.sharePlay, "SharePlay"),
            (.collaborationInviteWithLink, "CollaborationInviteWithLink"),
            (.collaborationCopyLink, "CollaborationCopyLink"), (.addToHomeScreen, "AddToHomeScreen"),
        ]
        #expect(expected.count == 20)
        for (type, suffix) in expected {
            #expect(type.rawValue == "com.apple.UIKit.activity." + suffix)
        }
        #expect(ActivityType.allUIKitTypes == expected.map(\.0))
    }

    @Test("custom types are new strings; both initialisers agree; nested alias ports")
    func customTypes() {
        let custom = ActivityType("com.nshipster.activity.Mustachify")
        #expect(custom == ActivityType(rawValue: "com.nshipster.activity.Mustachify"))
        #expect(Activity.ActivityType.mail == ActivityType.mail)
        #expect(ActivityType.openIn.rawValue == "org.sharesheet.activity.openIn")
    }

    @Test("categories keep UIKit's raw values")
    func categories() {
        #expect(Activity.Category.action.rawValue == 0)
        #expect(Activity.Category.share.rawValue == 1)
    }

    @MainActor
    @Test("Activity's defaults are UIKit's, and perform() finishes with false")
    func defaults() async {
        let activity = Activity()
        #expect(Activity.activityCategory == .action)
        #expect(activity.activityType == nil)
        #expect(activity.activityTitle == nil)
        #expect(activity.activityImage == nil)
        #expect(activity.canPerform(withActivityItems: ["x"]) == false)
        #expect(activity.activityInterface == nil)
        #expect(activity.returnedItems == nil)
    }
}
