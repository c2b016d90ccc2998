import Foundation

/// What one run measures, and how hard.
struct Config {
    /// True for the `--quick` smoke run.
    var quick: Bool
    /// Sheet sizes of measurement 1.
    var sizes = [10, 100, 1000]
    /// Providers among a sheet's items in measurement 1.
    var providerCount = 10
    /// What one document costs to make, eager and lazy.
    var eagerCost: Duration
    /// Eager builds per size: each takes `providerCount × eagerCost`, so one.
    var eagerRuns = 1
    /// Provider costs the lazy build is repeated with; the providers never run, so 60 s is free.
    var lazyCosts: [Duration]
    /// Lazy builds per size and provider cost.
    var lazyRuns: Int
    /// Providers started by the pick in measurement 2.
    var pickProviders = 8
    /// What each of them costs.
    var pickCost: Duration
    /// Repetitions of measurement 2 for the sleeping forms.
    var pickRuns: Int
    /// Repetitions of measurement 2 for the CPU-bound form.
    var busyRuns: Int
    /// Providers running when the sheet is dismissed in measurement 3.
    var cancelProviders = 8
    /// What each of them would cost if left alone.
    var cancelCost: Duration
    /// How long after the pick the sheet is dismissed.
    var dismissAfter: Duration
    /// Dismissals per provider form.
    var cancelRuns: Int
    /// Runs of the same providers left alone, the baseline of measurement 3.
    var cancelBaselineRuns = 1
    /// Sheets built per setup (200 share targets, none) and sheet in the share-target measurement.
    var targetRuns: Int

    /// The numbers in BENCHMARKS.md: a minute or so.
    static let full = Config(
        quick: false, eagerCost: .seconds(1), lazyCosts: [.milliseconds(1), .seconds(1), .seconds(60)], lazyRuns: 25,
        pickCost: .milliseconds(100), pickRuns: 5, busyRuns: 3,
        cancelCost: .seconds(5), dismissAfter: .milliseconds(100), cancelRuns: 5, targetRuns: 200)

    /// A smoke run of a few seconds: the same measurements with provider costs scaled down.
    static let quick = Config(
        quick: true, eagerCost: .milliseconds(10), lazyCosts: [.milliseconds(1), .milliseconds(10), .seconds(60)],
        lazyRuns: 5, pickCost: .milliseconds(25), pickRuns: 2, busyRuns: 1,
        cancelCost: .milliseconds(500), dismissAfter: .milliseconds(25), cancelRuns: 2, targetRuns: 30)
}

/// `share-bench`: how the lazy share sheet compares with doing the work up front, how providers
/// overlap after the pick, and how fast a dismissal stops them. Every ratio is against a baseline
/// measured in the same process; nothing asserts an absolute time.
@main
@MainActor
struct ShareBench {
    static let usage = """
        usage: share-bench [--quick] [--targets | --history | --suggestions | --photos]

          (default)  the full run whose numbers BENCHMARKS.md records (about a minute)
          --quick    a smoke run of a few seconds: provider costs scaled down, fewer repetitions
          --targets  only the share-target measurement (200 installed targets against none)
          --history  only the share history's: recording a share, and whole shares with and without it
          --suggestions  only the suggestions': a sheet with 10,000 history entries and 2,000 contacts against none
          --photos   only photo preparation's: a 12-megapixel JPEG to 2048 pixels against vipsthumbnail and convert
          --help     this text

        The report (Markdown) goes to standard output, progress to standard error.
        """

    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        // The photo measurement starts this program again to time `prepare` as a whole process.
        if arguments.first == "--prepare-one" { exit(PhotoPreparationBenchmark.prepareOne(Array(arguments.dropFirst()))) }
        if arguments.contains("--help") || arguments.contains("-h") {
            print(usage)
            return
        }
        if let unknown = arguments.first(where: { !["--quick", "--targets", "--history", "--suggestions", "--photos"].contains($0) }) {
            FileHandle.standardError.write(Data("share-bench: unknown argument '\(unknown)'\n\n\(usage)\n".utf8))
            exit(64)
        }
        let config = arguments.contains("--quick") ? Config.quick : Config.full
        defer { try? FileManager.default.removeItem(at: benchFolder) }

        let started = benchClock.now
        let loadBefore = loadAverage()
        var sections: [String] = []
        let onlySuggestions = arguments.contains("--suggestions")
        let onlyHistory = arguments.contains("--history")
        let onlyPhotos = arguments.contains("--photos")
        let onlyTargets = arguments.contains("--targets") || onlyHistory || onlySuggestions || onlyPhotos
        do {
            if !onlyTargets { sections.append(try BuildBenchmark(config: config).run()) }
        } catch {
            FileHandle.standardError.write(Data("share-bench: measurement 1 failed: \(error)\n".utf8))
            exit(1)
        }
        do {
            if !onlyHistory && !onlySuggestions && !onlyPhotos { sections.append(try TargetsBenchmark(config: config).run()) }
        } catch {
            FileHandle.standardError.write(Data("share-bench: the share-target measurement failed: \(error)\n".utf8))
            exit(1)
        }
        if !onlyTargets {
            sections.append(await PickBenchmark(config: config).run())
            sections.append(await CancellationBenchmark(config: config).run())
            sections.append(PhotosBenchmark(config: config).run())
            sections.append(ReadingListBenchmark(config: config).run())
            sections.append(PrintBenchmark(config: config).run())
        }
        if !onlyTargets || onlyPhotos { sections.append(PhotoPreparationBenchmark(config: config).run()) }
        if !onlyTargets || onlyHistory { sections.append(HistoryBenchmark(config: config).run()) }
        do {
            if !onlyTargets || onlySuggestions { sections.append(try SuggestionsBenchmark(config: config).run()) }
        } catch {
            FileHandle.standardError.write(Data("share-bench: the suggestions measurement failed: \(error)\n".utf8))
            exit(1)
        }
        let total = started.duration(to: benchClock.now)

        let info = ProcessInfo.processInfo
        var machine = "\(info.activeProcessorCount) cores, \(info.operatingSystemVersionString)"
        if let loadBefore, let loadAfter = loadAverage() {
            machine += "; load average \(loadBefore) before, \(loadAfter) after"
        }
        print(
            """
            # share-bench — \(config.quick ? "quick run (`--quick`: provider costs scaled down)" : "full run")

            Machine: \(machine). Whole run: \(total.formatted).
            Times from `ContinuousClock`; every ratio compares with a baseline measured in this same process.

            \(sections.joined(separator: "\n\n"))
            """)
    }
}
