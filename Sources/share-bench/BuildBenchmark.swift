import Foundation
import ShareSheet
import ShareSheetTesting

/// Measurement 1: time from "share" to the activity list, lazy (providers) against eager (seed
/// 004: make every document, then build the sheet with their URLs).
@MainActor
struct BuildBenchmark {
    let config: Config
    /// Every built-in of the catalog with an in-memory backend, so each one really asks
    /// `canPerform` of every item, as a sheet with all backends installed does.
    private let registry = ActivityRegistry()
    private let backends = InMemoryBackends()
    private let lazyFolder = benchFolder.appendingPathComponent("lazy", isDirectory: true)
    private let eagerFolder = benchFolder.appendingPathComponent("eager", isDirectory: true)

    init(config: Config) {
        self.config = config
        backends.install(into: registry)
    }

    /// Two application activities, as an app adds its own.
    private func applicationActivities() -> [Activity] {
        [
            FakeActivity(type: ActivityType("org.sharesheet.bench.saveToRecipes"), title: "Save to Recipes"),
            FakeActivity(
                type: ActivityType("org.sharesheet.bench.shoppingList"), title: "Add to Shopping List",
                accepts: { $0 is String }),
        ]
    }

    private struct Built {
        var elapsed: Duration
        var offered: [ActivityType?]
    }

    /// Builds a sheet around `items`, presents it headless and reads the activity list. Only
    /// what a presenter waits for is timed: `prepare` (seed 004's document work, for the eager
    /// way) and the build. The items and the application's activities are the caller's, made
    /// before "share" is tapped, so they are made outside the timed region.
    private func build(items: [Any], prepare: () throws -> Void) rethrows -> Built {
        let activities = applicationActivities()
        let start = benchClock.now
        try prepare()
        let controller = ActivityViewController(
            activityItems: items, applicationActivities: activities, registry: registry)
        controller.present()
        let offered = controller.activities.map(\.activityType)
        let elapsed = start.duration(to: benchClock.now)
        controller.dismiss()
        return Built(elapsed: elapsed, offered: offered)
    }

    /// The lazy path: the sheet gets seed 004's providers, whose documents would each take `cost`.
    private func lazyBuild(size: Int, cost: Duration, runs: WorkCounter) -> Built {
        let items = sheetItems(count: size, providerCount: config.providerCount) { number in
            RecipeDocumentURL(recipe: .sample(number), folder: lazyFolder, cost: cost, runs: runs)
        }
        return build(items: items) {}
    }

    /// The eager path of seed 004: make every document, one after another (timed), then build
    /// the sheet with their file URLs.
    private func eagerBuild(size: Int, cost: Duration) throws -> Built {
        let recipes = (0..<config.providerCount).map(Recipe.sample)
        let urls = recipes.map { eagerFolder.appendingPathComponent($0.name + ".json") }
        let items = sheetItems(count: size, providerCount: config.providerCount) { urls[$0] }
        return try build(items: items) {
            for (recipe, url) in zip(recipes, urls) { try RecipeDocument.write(recipe, to: url, cost: cost) }
        }
    }

    private static let classificationCalls = 200

    /// The cost of sorting one item into its kind, which the build pays per item and activity.
    private func classificationTable() -> Table {
        let items: [(String, Any)] = [
            ("text (`String`)", "Step 1: fold the egg whites in gently"),
            ("web link (`https` URL)", URL(string: "https://recipes.example/notes/1")!),
            ("provider placeholder (file URL, `.json`)", lazyFolder.appendingPathComponent("Recipe 1.json")),
            ("for comparison: 10 MB `Data` (not in these sheets)", Data(count: 10_000_000)),
        ]
        var table = Table("item", "one `ItemKind.of`", "÷ text")
        var medians: [Duration] = []
        for (name, item) in items {
            var samples = Samples()
            for _ in 0..<5 {
                let elapsed = timed {
                    for _ in 0..<Self.classificationCalls { _ = ItemKind.of(item) }
                }.elapsed
                samples.add(elapsed / Self.classificationCalls)
            }
            medians.append(samples.median)
            table.add(name, samples.median.formatted, formatRatio(samples.median.ratio(to: medians[0])))
        }
        return table
    }

    func run() throws -> String {
        try FileManager.default.createDirectory(at: eagerFolder, withIntermediateDirectories: true)
        let runs = WorkCounter()
        let costs = config.lazyCosts
        // Warm up: first use of the registry, the type database and the allocator.
        for _ in 0..<3 { _ = lazyBuild(size: config.sizes.max() ?? 10, cost: costs[0], runs: runs) }

        var comparison = Table(
            "items", "of which providers", "eager: seed 004 (1 run)", "lazy: median (min–max)", "eager ÷ lazy",
            "same list")
        let costColumns = costs.map { "lazy, provider cost \($0.formatted)" }
        var invariance = Table(["items"] + costColumns + ["spread of medians", "spread of minimums"])
        let eagerWork = "\(config.providerCount) × \(config.eagerCost.formatted) of document work"
        for size in config.sizes {
            note("1. sheet of \(size) items: eager build (\(eagerWork))")
            var eagerSamples = Samples()
            var eagerOffered: [ActivityType?] = []
            for _ in 0..<config.eagerRuns {
                let built = try eagerBuild(size: size, cost: config.eagerCost)
                eagerSamples.add(built.elapsed)
                eagerOffered = built.offered
            }
            note("1. sheet of \(size) items: lazy builds, \(config.lazyRuns) per provider cost")
            var lazySamples = costs.map { _ in Samples() }
            var lazyOffered: [ActivityType?] = []
            // Interleaved, so a slow moment of the machine falls on every cost alike.
            for _ in 0..<config.lazyRuns {
                for (index, cost) in costs.enumerated() {
                    let built = lazyBuild(size: size, cost: cost, runs: runs)
                    lazySamples[index].add(built.elapsed)
                    lazyOffered = built.offered
                }
            }
            let lazy = lazySamples[costs.firstIndex(of: config.eagerCost) ?? 0]
            comparison.add(
                String(size), String(config.providerCount), eagerSamples.summary, lazy.summary,
                formatRatio(eagerSamples.median.ratio(to: lazy.median)),
                eagerOffered == lazyOffered ? "yes (\(lazyOffered.count))" : "NO")
            // Slowest ÷ fastest across costs: 1× means the provider cost changed nothing. The minimum
            // is the least disturbed by other work on the machine.
            func spread(_ values: [Duration]) -> String {
                formatRatio((values.max() ?? .zero).ratio(to: values.min() ?? .zero))
            }
            invariance.add(
                [String(size)] + lazySamples.map(\.summary)
                    + [spread(lazySamples.map(\.median)), spread(lazySamples.map(\.min))])
        }

        let providerRuns = runs.value
        let lazyBuilds = config.lazyRuns * costs.count * config.sizes.count + 3
        let verdict =
            providerRuns == 0
            ? "(none, as SPEC §1.6 step 1 requires)" : "— CORE ISSUE: building the sheet ran provider work"
        let classification = classificationTable()
        return """
            ## 1. Building the sheet: time to the activity list

            Each sheet holds N items; \(config.providerCount) are seed 004's `RecipeDocumentURL` providers \
            (placeholder: the document's file URL), the rest alternate text and web links. The registry has every \
            built-in installed (in-memory backends) plus 2 application activities, so `canPerform` runs for real.

            eager = seed 004's way: make each document (\(config.eagerCost.formatted) of work) one after another, \
            then build the sheet with their URLs. lazy = build the sheet with the providers. \
            Both are timed from "share" to `activities` read after `present()`; the items and the application's \
            activities are made before, as the caller has them (eager's document work is timed: the seed did it \
            after "share").

            \(comparison.rendered)

            The lazy build against what the providers would cost (\(config.lazyRuns) interleaved runs each; \
            medians (min–max)); a spread is the slowest cost's time ÷ the fastest's, 1× when the cost changes \
            nothing:

            \(invariance.rendered)

            Where the lazy build's time goes: the sheet sorts each item into its kind once; the \
            \(registry.descriptors.count) built-ins decide from the distinct kinds (a file type's conformance is \
            a look-up in the type database), and the 2 application activities look at the items themselves. \
            One `ItemKind.of` call, per kind of item in these sheets (median of 5 rounds of \
            \(Self.classificationCalls) calls):

            \(classification.rendered)

            Provider work done while building all \(lazyBuilds) lazy sheets: \(providerRuns) runs \(verdict).
            """
    }
}
