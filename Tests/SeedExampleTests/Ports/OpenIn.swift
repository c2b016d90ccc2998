// Seed 003 ("Building a custom UIActivity (Open In…)"): an activity in the share row that hands
// a file URL to UIDocumentInteractionController's "Open In" menu. Written as modern Swift; the
// only line that differs from the iOS version is the import.
import ShareSheetUIKit

/// The article's type string, kept so exclusion lists written for it still match.
///
/// (ShareSheet's own Open In built-in, `.openIn`, is `org.sharesheet.activity.openIn`.)
let openInActivityType = UIActivity.ActivityType("OpenIn")

/// "Open In…": shows the applications that can open the shared file.
class OpenIn: UIActivity {
    /// The controller for the URL the sheet shares, made in `prepare(withActivityItems:)`.
    var docController: UIDocumentInteractionController?
    /// The button the sheet came from, where the menu is anchored.
    weak var barButton: UIBarButtonItem?

    init(barButton: UIBarButtonItem) {
        self.barButton = barButton
        super.init()
    }

    // Lets callers exclude the activity.
    override var activityType: UIActivity.ActivityType? { openInActivityType }

    override var activityTitle: String? { "Open In..." }

    // An app would return its icon here; the article leaves it out.
    override var activityImage: UIImage? { nil }

    // The share row (the top one); the default is the action row.
    override class var activityCategory: UIActivity.Category { .share }

    override func canPerform(withActivityItems activityItems: [Any]) -> Bool {
        activityItems.contains { $0 is URL }
    }

    override func prepare(withActivityItems activityItems: [Any]) {
        for case let url as URL in activityItems {
            docController = UIDocumentInteractionController(url: url)
        }
    }

    override func perform() {
        // The article never ends the activity; an activity must, so the sheet can finish. The
        // menu's answer says whether anything could open the file.
        guard let docController, let barButton else {
            activityDidFinish(false)
            return
        }
        let presented = docController.presentOpenInMenu(from: barButton, animated: true)
        activityDidFinish(presented)
    }
}

/// The article's view controller: its share button opens a sheet for a text file with "Open In…".
@MainActor
final class OpenInViewController {
    let fileURL: URL
    let presenter: any Presenter

    init(fileURL: URL, presenter: any Presenter) {
        self.fileURL = fileURL
        self.presenter = presenter
    }

    // Wired to the share button. The article reads the file from the app bundle; here the caller
    // says where it is. Popover anchoring is the presenter's business, so there is none to set.
    func shareStuff(_ sender: UIBarButtonItem) -> UIActivityViewController {
        let open = OpenIn(barButton: sender)
        let activityController = UIActivityViewController(activityItems: [fileURL], applicationActivities: [open])
        activityController.present(with: presenter)
        return activityController
    }
}
