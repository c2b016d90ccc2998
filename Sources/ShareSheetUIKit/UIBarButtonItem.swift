/// UIKit's toolbar button, kept only as the anchor UIKit code passes around.
///
/// ShareSheet has no toolbars: a presenter decides where a sheet or a menu appears. Code ported
/// from UIKit still hands a bar button item to the things it presents (seed 003's "Open In…"
/// activity keeps the one its sheet came from), so the type exists with its title and image and
/// nothing that would pretend to draw.
@MainActor
open class UIBarButtonItem {
    /// UIKit's system buttons that share code anchors sheets and menus to.
    public enum SystemItem: Int, Sendable {
        /// The "share" button (a square with an arrow).
        case action
        /// "Done".
        case done
        /// "Cancel".
        case cancel
        /// "Add".
        case add
    }

    /// The button's title.
    open var title: String?
    /// The button's icon.
    open var image: UIImage?
    /// The system button it is, when it was made from one.
    public let systemItem: SystemItem?

    /// Makes a button with a title or an image.
    public init(title: String? = nil, image: UIImage? = nil) {
        self.title = title
        self.image = image
        systemItem = nil
    }

    /// Makes one of UIKit's system buttons.
    public init(systemItem: SystemItem) {
        title = nil
        image = nil
        self.systemItem = systemItem
    }

    /// UIKit's older spelling of `init(systemItem:)`.
    public convenience init(barButtonSystemItem systemItem: SystemItem) {
        self.init(systemItem: systemItem)
    }
}
