// Seed 000 (NSHipster, "UIActivityViewController"): an item source that words its message per
// service, written as modern Swift. The only line that differs from the iOS version is the import.
import ShareSheetUIKit

/// "Like this!" on Facebook, "Retweet this!" on Twitter, and nothing elsewhere.
final class SocialMessageItemSource: UIActivityItemSource {
    func activityViewControllerPlaceholderItem(_ activityViewController: UIActivityViewController) -> Any {
        // Only the kind counts: the message will be text.
        ""
    }

    func activityViewController(
        _ activityViewController: UIActivityViewController, itemForActivityType activityType: UIActivity.ActivityType?
    ) -> Any? {
        if activityType == .postToFacebook {
            return NSLocalizedString("Like this!", comment: "Facebook message")
        } else if activityType == .postToTwitter {
            return NSLocalizedString("Retweet this!", comment: "Twitter message")
        } else {
            return nil
        }
    }
}
