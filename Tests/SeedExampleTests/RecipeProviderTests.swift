import Foundation
import ShareSheetTesting
import ShareSheetUIKit
import Testing

/// The seed's provider, observed: records each run of `item` and whether it ran on the main actor.
final class ObservedRecipeDocumentURL: RecipeDocumentURL, @unchecked Sendable {
    let runs = CallLog()

    override var item: Any {
        runs.record("item")
        return super.item
    }
}

/// A recipe with a name no other test uses, so parallel tests never share a file.
func uniqueRecipe() -> Recipe {
    Recipe(
        name: "Caramel \(UUID().uuidString.prefix(8))",
        ingredients: ["200 g sugar", "60 ml water", "120 ml cream"],
        steps: ["Dissolve the sugar in the water.", "Cook to amber.", "Whisk in the cream."])
}

/// Seed 004: `RecipeDocumentURL`, then the same with the ready-made `FileProvider`.
@Suite("Seed 004: a recipe document written only after the pick")
@MainActor
struct RecipeProviderTests {
    @Test("the placeholder is the document's URL: file activities are offered while the file does not exist")
    func placeholderOffersFileActivities() throws {
        let (registry, _) = makeInMemoryRegistry()
        let provider = ObservedRecipeDocumentURL(recipe: uniqueRecipe())
        defer { try? FileManager.default.removeItem(at: provider.temporaryURL) }
        let controller = UIActivityViewController(
            activityItems: [provider], applicationActivities: nil, registry: registry)

        let sheet = controller.sheet
        #expect(provider.placeholderItem as? URL == provider.temporaryURL)
        #expect(provider.temporaryURL.pathExtension == "recipe")
        guard case .fileURL = sheet.itemKinds.first else {
            Issue.record("the placeholder should count as a file URL, not \(sheet.itemKinds)")
            return
        }
        let offered = offeredTypes(sheet)
        #expect(offered.share.contains(.mail))
        #expect(offered.share.contains(.message))
        #expect(offered.action.contains(.airDrop))
        #expect(offered.action.contains(.copyToPasteboard))
        #expect(!offered.action.contains(.addToReadingList))
        #expect(!offered.action.contains(.saveToCameraRoll))
        #expect(!FileManager.default.fileExists(atPath: provider.temporaryURL.path))
        #expect(provider.runs.all.isEmpty)
    }

    @Test("the document is written after the pick, off the main thread, and Mail gets its URL")
    func writtenAfterThePick() async throws {
        let (registry, backends) = makeInMemoryRegistry()
        let recipe = uniqueRecipe()
        let provider = ObservedRecipeDocumentURL(recipe: recipe)
        defer { try? FileManager.default.removeItem(at: provider.temporaryURL) }
        let controller = UIActivityViewController(
            activityItems: [provider], applicationActivities: nil, registry: registry)

        controller.present()
        #expect(!FileManager.default.fileExists(atPath: provider.temporaryURL.path), "shown, not picked")

        #expect(controller.select(.mail))
        let outcome = await controller.waitForCompletion()

        #expect(outcome.activityType == .mail)
        #expect(outcome.completed)
        let written = try Data(contentsOf: provider.temporaryURL)
        #expect(try JSONDecoder().decode(Recipe.self, from: written) == recipe)
        #expect(backends.received[.mail]?.map { $0.map { $0 as? URL } } == [[provider.temporaryURL]])
        #expect(provider.runs.names == ["item"])
        #expect(provider.runs.all.map(\.onMainActor) == [false], "the document was written on the main actor")
    }

    @Test("FileProvider(filename:type:) gives the same: a named URL at once, the file after the pick")
    func fileProviderWritesAfterThePick() async throws {
        let (registry, backends) = makeInMemoryRegistry()
        let recipe = uniqueRecipe()
        var document = RecipeDocument(fileURL: URL(fileURLWithPath: "/unused"))
        document.load(recipe: recipe)
        let contents = try document.contents()
        let writes = CallLog()
        let provider = FileProvider(filename: recipe.name, type: .json) { url in
            writes.record("write")
            try contents.write(to: url)
        }
        let controller = UIActivityViewController(
            activityItems: [provider], applicationActivities: nil, registry: registry)

        #expect(provider.fileURL.lastPathComponent == "\(recipe.name).json")
        #expect(provider.placeholderItem as? URL == provider.fileURL)
        let offered = offeredTypes(controller.sheet)
        #expect(offered.share.contains(.mail))
        #expect(offered.action.contains(.print), "a JSON file is text, so it can be printed")
        controller.present()
        #expect(!FileManager.default.fileExists(atPath: provider.fileURL.path))
        #expect(writes.all.isEmpty)

        #expect(controller.select(.mail))
        let outcome = await controller.waitForCompletion()

        #expect(outcome.completed)
        #expect(try Data(contentsOf: provider.fileURL) == contents)
        #expect(backends.received[.mail]?.map { $0.map { $0 as? URL } } == [[provider.fileURL]])
        #expect(writes.names == ["write"])
        #expect(writes.all.map(\.onMainActor) == [false], "the document was written on the main actor")
    }

    @Test("dismissing while FileProvider writes cancels the writer and leaves no file behind")
    func dismissWhileWriting() async throws {
        let (registry, backends) = makeInMemoryRegistry()
        let recipe = uniqueRecipe()
        let events = CallLog()
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        let provider = FileProvider(filename: "\(recipe.name).recipe") { url in
            // Half a document is on disk when the person dismisses the sheet.
            try Data("{\"name\":".utf8).write(to: url)
            startedContinuation.yield()
            do {
                try await Task.sleep(for: .seconds(60))
            } catch {
                events.record("cancelled")
                throw error
            }
            events.record("finished")
            try Data("\"\(recipe.name)\"}".utf8).write(to: url)
        }
        let controller = UIActivityViewController(
            activityItems: [provider], applicationActivities: nil, registry: registry)

        controller.present(with: ScriptedPresenter(pick: .mail))
        for await _ in started { break }
        controller.dismiss()
        await controller.waitForProvidersToStop()
        let outcome = await controller.waitForCompletion()

        #expect(outcome.activityType == nil)
        #expect(!outcome.completed)
        #expect(events.names == ["cancelled"])
        #expect(!FileManager.default.fileExists(atPath: provider.fileURL.path))
        let folder = provider.fileURL.deletingLastPathComponent()
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        #expect(leftovers.isEmpty, "partial files left behind: \(leftovers)")
        #expect(backends.received.isEmpty)
    }
}
