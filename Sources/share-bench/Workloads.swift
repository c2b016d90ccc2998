import Foundation
import ShareSheet

/// The model seed 004's app shares: a recipe, turned into a document file on demand.
struct Recipe: Codable, Sendable {
    var name: String
    var ingredients: [String]
    var steps: [String]

    static func sample(_ number: Int) -> Recipe {
        Recipe(
            name: "Recipe \(number)",
            ingredients: (1...12).map { "ingredient \($0) of recipe \(number)" },
            steps: (1...20).map { "step \($0): stir, wait, taste" })
    }
}

/// Making a recipe's document: `cost` of work (a slow renderer, simulated by blocking the
/// calling thread, which is what the seed's synchronous save does), then the file is written.
enum RecipeDocument {
    static func write(_ recipe: Recipe, to url: URL, cost: Duration) throws {
        Thread.sleep(forTimeInterval: cost.inSeconds)
        let data = try JSONEncoder().encode(recipe)
        try data.write(to: url, options: .atomic)
    }
}

/// Counts how often provider work ran, from any thread.
final class WorkCounter: Sendable {
    private let count = Locked(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

/// Seed 004's `RecipeDocumentURL`, ported: the placeholder is the URL the document will have, and
/// `item` (run off the main actor after the pick) makes the document there.
final class RecipeDocumentURL: ActivityItemProvider, @unchecked Sendable {
    let recipe: Recipe
    let temporaryURL: URL
    let cost: Duration
    let runs: WorkCounter

    init(recipe: Recipe, folder: URL, cost: Duration, runs: WorkCounter) {
        self.recipe = recipe
        temporaryURL = folder.appendingPathComponent(recipe.name + ".json")
        self.cost = cost
        self.runs = runs
        super.init(placeholderItem: temporaryURL)
    }

    override var item: Any {
        runs.increment()
        try? RecipeDocument.write(recipe, to: temporaryURL, cost: cost)
        return temporaryURL
    }
}

/// The items of a sheet of `count` items, `providerCount` of which are spread evenly and made by
/// `provider`; the others alternate between text and web links.
func sheetItems(count: Int, providerCount: Int, provider: (Int) -> Any) -> [Any] {
    let stride = Swift.max(1, count / providerCount)
    var made = 0
    return (0..<count).map { index -> Any in
        if made < providerCount, index.isMultiple(of: stride) {
            defer { made += 1 }
            return provider(made)
        }
        return index.isMultiple(of: 2)
            ? "Step \(index): fold the egg whites in gently"
            : URL(string: "https://recipes.example/notes/\(index)")!
    }
}

/// Where the benchmark writes documents; removed when the run ends.
let benchFolder = FileManager.default.temporaryDirectory
    .appendingPathComponent("share-bench-\(ProcessInfo.processInfo.processIdentifier)", isDirectory: true)

// MARK: CPU-bound work

/// Keeps the optimizer from dropping the busy loop's result.
let busySink = Locked<UInt64>(0)

/// `iterations` rounds of xorshift: work that needs a core the whole time.
@inline(never)
func busyWork(_ iterations: Int) {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    for _ in 0..<iterations {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
    }
    let result = state
    busySink.withLock { $0 &+= result }
}

/// How many `busyWork` iterations take `target` on one core of this machine (best of five).
@MainActor
func calibrateBusyWork(for target: Duration) -> Int {
    let probe = 2_000_000
    var best = Duration.seconds(3600)
    for _ in 0..<5 {
        best = min(best, timed { busyWork(probe) }.elapsed)
    }
    return Swift.max(1, Int(Double(probe) * target.ratio(to: best)))
}

/// A provider that keeps a core busy for a fixed amount of work, UIKit-style (`item` override).
final class BusyProvider: ActivityItemProvider, @unchecked Sendable {
    let iterations: Int

    init(iterations: Int) {
        self.iterations = iterations
        super.init(placeholderItem: "busy document")
    }

    override var item: Any {
        busyWork(iterations)
        return "busy document, made"
    }
}
