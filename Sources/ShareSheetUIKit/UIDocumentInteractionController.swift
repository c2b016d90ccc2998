import OpenIn

/// What UIKit tells a document interaction controller's delegate about a hand-off.
@MainActor
public protocol UIDocumentInteractionControllerDelegate: AnyObject {
    /// The file is about to be handed to the application with this desktop-file id.
    func documentInteractionController(
        _ controller: UIDocumentInteractionController, willBeginSendingToApplication application: String?)
    /// The application with this desktop-file id was started with the file.
    func documentInteractionController(
        _ controller: UIDocumentInteractionController, didEndSendingToApplication application: String?)
}

extension UIDocumentInteractionControllerDelegate {
    public func documentInteractionController(
        _ controller: UIDocumentInteractionController, willBeginSendingToApplication application: String?
    ) {}
    public func documentInteractionController(
        _ controller: UIDocumentInteractionController, didEndSendingToApplication application: String?
    ) {}
}

/// UIKit's "Open In…" controller for one file, backed by the desktop's applications.
///
/// It describes the file (its URL, name and type) the way UIKit does. Its Open In menu is the
/// list of desktop applications for the file's type (`applications`), default first. A library
/// has no window to show that list in, so presenting the menu picks its first entry, the way
/// IntentKit does once a choice is remembered: the desktop default (`mimeapps.list`, or the first
/// registered application) receives the file. To let a person pick, share the file through the
/// Open In activity (`ActivityType.openIn`), which asks when several applications fit.
@MainActor
open class UIDocumentInteractionController {
    /// The workspace new controllers use; tests point it at an in-memory catalog.
    public static var defaultWorkspace: Workspace = .shared

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
    /// Hears about hand-offs to applications.
    open weak var delegate: (any UIDocumentInteractionControllerDelegate)?
    /// Where applications are found and started.
    open var workspace: Workspace = UIDocumentInteractionController.defaultWorkspace
    /// Why the last menu was not shown or its application did not start; nil after a success.
    open private(set) var lastFailureReason: String?

    /// Makes a controller for the file at `url`.
    public init(url: URL) {
        self.url = url
        uti = Self.typeIdentifier(of: url)
        name = url.lastPathComponent
    }

    /// Makes a controller with no file yet.
    public init() {}

    /// The entries of the Open In menu: the applications for the file, default first.
    open var applications: [Application] {
        guard let url else { return [] }
        return workspace.applications(for: url)
    }

    /// Shows the Open In menu anchored at `item`: hands the file to the menu's first entry, the
    /// desktop default for its type.
    ///
    /// - Returns: true when an application received the file; false, as UIKit answers, when no
    ///   application can open it (or it did not start: see `lastFailureReason`).
    @discardableResult
    open func presentOpenInMenu(from item: UIBarButtonItem, animated: Bool) -> Bool {
        guard let url else {
            lastFailureReason = "no file to open"
            return false
        }
        guard let application = workspace.applications(for: url).first else {
            lastFailureReason = "\(url.lastPathComponent): no application opens \(workspace.contentType(for: url)) files"
            return false
        }
        delegate?.documentInteractionController(self, willBeginSendingToApplication: application.id)
        do {
            try workspace.open([url], with: application)
        } catch {
            lastFailureReason = "\(error)"
            return false
        }
        lastFailureReason = nil
        delegate?.documentInteractionController(self, didEndSendingToApplication: application.id)
        return true
    }

    /// Would show the file's options (open in, copy, print…), anchored at `item`.
    ///
    /// - Returns: false: this build has no options menu; use `presentOpenInMenu(from:animated:)`
    ///   or share the file through a sheet.
    @discardableResult
    open func presentOptionsMenu(from item: UIBarButtonItem, animated: Bool) -> Bool { false }

    /// Takes a shown menu away; the menu never stays on screen, so there is nothing to remove.
    open func dismissMenu(animated: Bool) {}

    private static func typeIdentifier(of url: URL) -> String {
        // A local file is typed by its name, then its content; any other URL by its name.
        UTType.type(ofFileAt: url).identifier
    }
}
