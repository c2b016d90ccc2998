/// UIKit's "Open In…" controller for one file, as far as this build can honestly go.
///
/// It describes the file (its URL, name and type) the way UIKit does. Showing the list of
/// applications that can open the file needs an application launcher (desktop entries, GIO app
/// info, `mimeapps.list`), which this build does not have yet: the menu methods answer `false`,
/// exactly what UIKit answers when no application can open the file, and show nothing. They
/// never report success they did not have.
@MainActor
open class UIDocumentInteractionController {
    /// Why the menus are never shown in this build.
    public static let unavailableReason = "no application handler is installed in this build"

    /// The file to open.
    open var url: URL? {
        didSet {
            // UIKit derives the type and name from the URL until the caller sets them.
            uti = url.map(Self.typeIdentifier(of:))
            name = url?.lastPathComponent
        }
    }
    /// The file's uniform type identifier, from its name (and its first bytes when the name
    /// says nothing), as UIKit derives it.
    open var uti: String?
    /// The file's name as people see it.
    open var name: String?

    /// Makes a controller for the file at `url`.
    public init(url: URL) {
        self.url = url
        uti = Self.typeIdentifier(of: url)
        name = url.lastPathComponent
    }

    /// Makes a controller with no file yet.
    public init() {}

    /// Would show the applications that can open the file, anchored at `item`.
    ///
    /// - Returns: false: no application handler is installed in this build, so no menu is shown
    ///   (`unavailableReason`). UIKit answers false the same way when no application fits.
    @discardableResult
    open func presentOpenInMenu(from item: UIBarButtonItem, animated: Bool) -> Bool { false }

    /// Would show the file's options (open in, copy, print…), anchored at `item`.
    ///
    /// - Returns: false, for the reason `presentOpenInMenu(from:animated:)` gives.
    @discardableResult
    open func presentOptionsMenu(from item: UIBarButtonItem, animated: Bool) -> Bool { false }

    /// Takes a shown menu away; there never is one in this build.
    open func dismissMenu(animated: Bool) {}

    private static func typeIdentifier(of url: URL) -> String {
        // A local file is typed by its name, then its content; any other URL by its name.
        UTType.type(ofFileAt: url).identifier
    }
}
