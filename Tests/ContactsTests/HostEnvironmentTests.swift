import Foundation
import LocalTestSupport
import ShareSheet
import Testing

@testable import Contacts

/// Without a book given, the activity works on the book of the registry's host environment.
@MainActor
@Suite("Assign to Contact in a host environment")
struct ContactsHostEnvironmentTests {
    @Test("a new card lands in the host's $XDG_DATA_HOME/contacts/default; saved, at the card's path")
    func hostBook() async throws {
        let root = try TemporaryFolder.make("contacts-host")
        defer { TemporaryFolder(existing: root).remove() }
        let image = root.appendingPathComponent("face.jpg")
        try TestImages.make(width: 64, height: 64, format: "jpeg").write(to: image)
        let registry = ActivityRegistry(
            environment: HostEnvironment(variables: [
                "HOME": root.path, "XDG_DATA_HOME": root.appendingPathComponent("data").path,
                "XDG_CONFIG_HOME": root.appendingPathComponent("config").path,
            ]))
        registry.install(.assignToContact) {
            let activity = AssignToContactActivity()
            activity.warningHandler = { _ in }
            return activity
        }
        let controller = ActivityViewController(activityItems: [image], applicationActivities: nil, registry: registry)
        controller.present(with: ScriptedPresenter(pick: .assignToContact, values: ["contact": .text("Ana Lima")]))
        let outcome = await controller.waitForCompletion()
        #expect(outcome.completed, "\(String(describing: outcome.error))")
        let folder = root.appendingPathComponent("data/contacts/default")
        let cards = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(cards.count == 1)
        #expect(outcome.disposition == .saved)
        #expect(outcome.location == folder.appendingPathComponent(try #require(cards.first)).path)
    }
}
