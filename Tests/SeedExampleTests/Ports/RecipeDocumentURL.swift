// Seed 004 ("Faster share sheets with UIActivityItemProvider"): present the sheet at once with
// the URL the recipe document will have, and write the document only after the pick, off the
// main thread. Written as modern Swift; the only line that differs from the iOS version is the
// import.
import ShareSheetUIKit

/// A recipe, the model the document is made from.
struct Recipe: Codable, Sendable, Equatable {
    var name: String
    var ingredients: [String]
    var steps: [String]
}

/// The `.recipe` file format: the recipe as JSON.
///
/// The article subclasses UIDocument. Current SDKs isolate UIDocument to the main actor, so Swift 6
/// code cannot make one inside `item`, which runs on a background thread; the modern version
/// encodes the model itself and writes it safely (atomically), which is what UIDocument's
/// `writeContents(_:andAttributes:safelyTo:for:)` did.
struct RecipeDocument {
    let fileURL: URL
    private(set) var recipe: Recipe?

    init(fileURL: URL) {
        self.fileURL = fileURL
    }

    mutating func load(recipe: Recipe) {
        self.recipe = recipe
    }

    /// The document's bytes.
    func contents() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(recipe)
    }

    /// Writes `data` to `url` through a temporary file, so no reader sees half a document.
    func writeContents(_ data: Data?, safelyTo url: URL) throws {
        guard let data else { return }
        try data.write(to: url, options: .atomic)
    }
}

/// The recipe's document URL, whose file is written only when an activity needs it.
///
/// Restates `@unchecked Sendable` as Swift 6 asks of `Operation` subclasses (on Apple platforms too).
class RecipeDocumentURL: UIActivityItemProvider, @unchecked Sendable {
    let temporaryURL: URL
    let recipe: Recipe

    init(recipe: Recipe) {
        self.recipe = recipe
        temporaryURL = URL.temporaryDirectory.appending(path: "\(recipe.name).recipe")
        // The file does not exist yet; the URL alone tells the sheet a document is coming.
        super.init(placeholderItem: temporaryURL)
    }

    // Called after the pick, on a background thread: build and save the document, then hand
    // over its URL, which now points at a complete file.
    override var item: Any {
        var recipeDocument = RecipeDocument(fileURL: temporaryURL)
        recipeDocument.load(recipe: recipe)

        let data = try? recipeDocument.contents()
        try? recipeDocument.writeContents(data, safelyTo: temporaryURL)

        return temporaryURL
    }
}
