/// Names a kind of activity: a built-in service or an application's own.
///
/// Built-in values keep Apple's raw strings, so stored exclusion lists and comparisons written
/// for UIKit keep working. Custom activities use new reverse-DNS strings.
public struct ActivityType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The reverse-DNS string that identifies the activity.
    public let rawValue: String

    /// Wraps a raw activity string.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Wraps a raw activity string.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    private static func apple(_ suffix: String) -> ActivityType {
        ActivityType("com.apple.UIKit.activity." + suffix)
    }

    /// Posts to Facebook.
    public static let postToFacebook = apple("PostToFacebook")
    /// Posts to Twitter (X).
    public static let postToTwitter = apple("PostToTwitter")
    /// Posts to Sina Weibo.
    public static let postToWeibo = apple("PostToWeibo")
    /// Sends a message (SMS/MMS).
    public static let message = apple("Message")
    /// Sends an e-mail.
    public static let mail = apple("Mail")
    /// Prints.
    public static let print = apple("Print")
    /// Copies to the pasteboard.
    public static let copyToPasteboard = apple("CopyToPasteboard")
    /// Sets a contact's photo.
    public static let assignToContact = apple("AssignToContact")
    /// Saves images and videos to the photo library.
    public static let saveToCameraRoll = apple("SaveToCameraRoll")
    /// Adds a web page to the reading list.
    public static let addToReadingList = apple("AddToReadingList")
    /// Posts to Flickr.
    public static let postToFlickr = apple("PostToFlickr")
    /// Posts to Vimeo.
    public static let postToVimeo = apple("PostToVimeo")
    /// Posts to Tencent Weibo. Apple's raw value has no "PostTo".
    public static let postToTencentWeibo = apple("TencentWeibo")
    /// Sends to a nearby device.
    public static let airDrop = apple("AirDrop")
    /// Opens in Books. Declared for completeness.
    public static let openInIBooks = apple("OpenInIBooks")
    /// Marks up as PDF. Declared for completeness.
    public static let markupAsPDF = apple("MarkupAsPDF")
    /// Starts SharePlay. Declared for completeness.
    public static let sharePlay = apple("SharePlay")
    /// Invites to collaborate with a link. Declared for completeness.
    public static let collaborationInviteWithLink = apple("CollaborationInviteWithLink")
    /// Copies a collaboration link. Declared for completeness.
    public static let collaborationCopyLink = apple("CollaborationCopyLink")
    /// Adds a web page to the home screen. Declared for completeness.
    public static let addToHomeScreen = apple("AddToHomeScreen")

    /// Opens the item in another application (ShareSheet's own, after seed 003).
    public static let openIn = ActivityType("org.sharesheet.activity.openIn")
    /// Posts to Mastodon (ShareSheet's own).
    public static let postToMastodon = ActivityType("org.sharesheet.activity.postToMastodon")

    /// Every constant UIKit declares, in Apple's order.
    public static let allUIKitTypes: [ActivityType] = [
        .postToFacebook, .postToTwitter, .postToWeibo, .message, .mail, .print, .copyToPasteboard,
        .assignToContact, .saveToCameraRoll, .addToReadingList, .postToFlickr, .postToVimeo,
        .postToTencentWeibo, .airDrop, .openInIBooks, .markupAsPDF, .sharePlay,
        .collaborationInviteWithLink, .collaborationCopyLink, .addToHomeScreen,
    ]
}
