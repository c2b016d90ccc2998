import Foundation
import LocalTestSupport
import OpenIn
import ShareSheetTesting
import ShareSheetUIKit
import Testing

/// The seed's activity, observed: counts the calls of `perform()`.
final class RecordingOpenIn: OpenIn {
    private(set) var performCount = 0

    override func perform() {
        performCount += 1
        super.perform()
    }
}

/// Seed 003: the `OpenIn` activity and its view controller.
///
/// The document controller's menu reaches the desktop's applications through
/// `UIDocumentInteractionController.defaultWorkspace`; each test points it at a desktop in
/// memory (one text editor), so no real program starts. Serialized: that default is shared.
@Suite("Seed 003: a custom Open In… activity", .serialized)
@MainActor
struct OpenInTests {
    let desktop = MemoryDesktop.withTextEditor()

    init() {
        UIDocumentInteractionController.defaultWorkspace = Workspace(catalog: desktop)
    }
    @Test("offered first in the share row for a file URL, with the article's type, title and row")
    func offeredForAFileURL() throws {
        let folder = try TemporaryFolder("seed-tests")
        defer { folder.remove() }
        let fileURL = try folder.write("MyFile.txt", Data("Hello\n".utf8))
        let button = UIBarButtonItem(systemItem: .action)
        let open = OpenIn(barButton: button)
        let (registry, _) = makeInMemoryRegistry()
        let controller = UIActivityViewController(
            activityItems: [fileURL], applicationActivities: [open], registry: registry)

        let sheet = controller.sheet
        #expect(sheet.shareRow.first === open)
        #expect(!sheet.actionRow.contains { $0 === open })
        #expect(open.activityType?.rawValue == "OpenIn")
        #expect(open.activityTitle == "Open In...")
        #expect(open.activityImage == nil)
        #expect(OpenIn.activityCategory == .share)
    }

    @Test("not offered when the only item is a string, even one that spells a path or a link")
    func notOfferedForAString() {
        for text in ["Hello", "/tmp/MyFile.txt", "https://example.com/MyFile.txt"] {
            let open = OpenIn(barButton: UIBarButtonItem(title: "Share"))
            let controller = UIActivityViewController(
                activityItems: [text], applicationActivities: [open], registry: ActivityRegistry())
            let sheet = controller.sheet
            #expect(!sheet.activities.contains { $0 === open }, "offered for \(text.debugDescription)")
            #expect(sheet.unavailable.contains { $0.activity === open })
        }
    }

    @Test("canPerform is true as soon as any item is a URL, as the article checks")
    func canPerformWithAnyURL() throws {
        let open = OpenIn(barButton: UIBarButtonItem(title: "Share"))
        let fileURL = URL(fileURLWithPath: "/tmp/MyFile.txt")
        let webURL = try #require(URL(string: "https://example.com/"))
        #expect(open.canPerform(withActivityItems: [fileURL]))
        #expect(open.canPerform(withActivityItems: [webURL]))
        #expect(open.canPerform(withActivityItems: ["text", 42, fileURL]))
        #expect(!open.canPerform(withActivityItems: ["text", 42]))
        #expect(!open.canPerform(withActivityItems: []))
    }

    @Test("the pick prepares a document controller for the URL and performs; the menu hands the file to the default application")
    func pickPreparesAndPerforms() async throws {
        let folder = try TemporaryFolder("seed-tests")
        defer { folder.remove() }
        let fileURL = try folder.write("MyFile.txt", Data("Hello\n".utf8))
        let button = UIBarButtonItem(systemItem: .action)
        let open = RecordingOpenIn(barButton: button)
        let (registry, backends) = makeInMemoryRegistry()
        let controller = UIActivityViewController(
            activityItems: ["A note", fileURL], applicationActivities: [open], registry: registry)
        var handled: [(UIActivity.ActivityType?, Bool)] = []
        controller.completionWithItemsHandler = { type, completed, _, _ in handled.append((type, completed)) }

        controller.present(with: ScriptedPresenter(pick: openInActivityType))
        let outcome = await controller.waitForCompletion()

        let docController = try #require(open.docController)
        #expect(docController.url == fileURL)
        #expect(docController.name == "MyFile.txt")
        #expect(docController.uti == UTType.plainText.identifier)
        #expect(open.performCount == 1)
        // The desktop's text editor received exactly the file; the activity completed.
        #expect(desktop.launches.map(\.application) == ["editor.desktop"])
        #expect(desktop.launches.first?.urls == [fileURL])
        #expect(outcome.activityType == openInActivityType)
        #expect(outcome.completed)
        #expect(outcome.error == nil)
        #expect(handled.count == 1)
        #expect(handled.first?.0 == openInActivityType)
        #expect(handled.first?.1 == true)
        #expect(backends.received.isEmpty)
    }

    @Test("the article's view controller: the share button's sheet runs Open In for its file")
    func viewControllerFlow() async throws {
        let folder = try TemporaryFolder("seed-tests")
        defer { folder.remove() }
        let fileURL = try folder.write("MyFile.txt", Data("Hello\n".utf8))
        let button = UIBarButtonItem(barButtonSystemItem: .action)
        let presenter = ScriptedPresenter(pick: openInActivityType)
        let viewController = OpenInViewController(fileURL: fileURL, presenter: presenter)

        let controller = viewController.shareStuff(button)
        let outcome = await controller.waitForCompletion()

        #expect(!presenter.pickWasUnavailable)
        #expect(presenter.shownSheet?.shareRow.first?.activityType == openInActivityType)
        let open = try #require(controller.applicationActivities.first as? OpenIn)
        #expect(open.barButton === button)
        #expect(open.docController?.url == fileURL)
        #expect(outcome.activityType == openInActivityType)
        #expect(outcome.completed)
        #expect(desktop.launches.first?.urls == [fileURL])
    }

    @Test("the UIDocumentInteractionController stand-in describes the file and answers false when no application opens it")
    func documentInteractionControllerIsHonest() throws {
        let folder = try TemporaryFolder("seed-tests")
        defer { folder.remove() }
        let imageURL = try folder.write("photo.png", samplePNG)
        let controller = UIDocumentInteractionController(url: imageURL)
        let button = UIBarButtonItem(title: "Open")

        #expect(controller.uti == UTType.png.identifier)
        #expect(controller.name == "photo.png")
        // The desktop has a text editor only: nothing opens a PNG, nothing starts.
        #expect(controller.applications.isEmpty)
        #expect(controller.presentOpenInMenu(from: button, animated: true) == false)
        #expect(controller.lastFailureReason == "photo.png: no application opens image/png files")
        #expect(controller.presentOptionsMenu(from: button, animated: false) == false)
        #expect(desktop.launches.isEmpty)

        let empty = UIDocumentInteractionController()
        #expect(empty.url == nil && empty.uti == nil)
        empty.url = imageURL
        #expect(empty.uti == UTType.png.identifier)
    }
}
