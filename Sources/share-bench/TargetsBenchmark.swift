import Foundation
import ShareSheet
import ShareSheetBuiltins
import ShareTargets

/// Share targets (#16): building a sheet with 200 installed targets against building it with
/// none, the same registry setup as `share` (every built-in, `Builtins.install(into:)`) in a
/// throwaway home. The issue allows 1.2×: the catalog is read once and kept, so a sheet pays
/// only for deciding each target, never for a scan.
@MainActor
struct TargetsBenchmark {
    let config: Config
    static let targetCount = 200
    private let folder = benchFolder.appendingPathComponent("targets", isDirectory: true)

    /// One kind of entry in the mix: what it accepts, how many of the 200 have it, and whether
    /// each sheet should offer it (worked out by hand from SPEC §9, so the check can fail).
    private struct Kind {
        var accepts: String
        var count: Int
        var offeredForPhoto: Bool
        var offeredForMixed: Bool
    }

    /// Most take images, as installed targets do; some take other things or limit the count.
    /// The mixed sheet holds 3 images, one text and one web link.
    private static let mix: [Kind] = [
        Kind(accepts: "public.image", count: 70, offeredForPhoto: true, offeredForMixed: true),
        Kind(accepts: "public.image[1-10]", count: 40, offeredForPhoto: true, offeredForMixed: true),
        Kind(accepts: "public.image[1]", count: 8, offeredForPhoto: true, offeredForMixed: false),
        Kind(accepts: "public.image[2-]", count: 4, offeredForPhoto: false, offeredForMixed: true),
        Kind(accepts: "text/plain", count: 14, offeredForPhoto: false, offeredForMixed: true),
        Kind(accepts: "public.url", count: 14, offeredForPhoto: false, offeredForMixed: true),
        Kind(accepts: "application/pdf", count: 14, offeredForPhoto: false, offeredForMixed: false),
        Kind(accepts: "image/*", count: 14, offeredForPhoto: true, offeredForMixed: true),
        Kind(accepts: "public.movie", count: 10, offeredForPhoto: false, offeredForMixed: false),
        Kind(accepts: "public.image;text/plain[1]", count: 8, offeredForPhoto: true, offeredForMixed: true),
        Kind(accepts: "public.movie[1-3];public.image[1-2]", count: 4, offeredForPhoto: true, offeredForMixed: false),
    ]

    /// The two registries compared: set up alike, differing only in the data home's entries.
    private struct Setup {
        var name: String
        var registry: ActivityRegistry
        var environment: HostEnvironment
    }

    /// What one timed sheet showed.
    private struct Built {
        var elapsed: Duration
        var offered: Int
        var offeredTargets: Int
        var unavailableTargets: Int
    }

    private struct Workload {
        var name: String
        var items: [Any]
        /// How many targets the 200-target sheet must offer.
        var expected: Int
    }

    // MARK: Setting up

    /// The entries, spread so that kinds alternate through the desktop-id order; every 20th is
    /// reached over D-Bus, the rest launch `/bin/true`; even ones in the share row, odd in actions.
    private func writeEntries(into applications: URL) throws {
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        let kinds = Self.mix.flatMap { Array(repeating: $0.accepts, count: $0.count) }
        precondition(kinds.count == Self.targetCount, "the mix holds \(kinds.count) entries")
        for number in 0..<Self.targetCount {
            // 77 is coprime with 200: each kind lands all over the list, not in one block.
            let accepts = kinds[(number * 77) % Self.targetCount]
            let reach =
                number.isMultiple(of: 20) ? "X-ShareSheet-DBus=org.example.Target\(number)\n" : "Exec=/bin/true %F\n"
            let entry = """
                [Desktop Entry]
                Type=Application
                Name=Target \(number)
                Icon=image-x-generic
                \(reach)X-ShareSheet-Accepts=\(accepts)
                X-ShareSheet-Category=\(number.isMultiple(of: 2) ? "share" : "action")

                """
            let name = String(format: "org.example.Target%03d.desktop", number)
            try Data(entry.utf8).write(to: applications.appendingPathComponent(name))
        }
    }

    /// A registry as `share` has it, in a home of its own whose data home is `dataHome`. The
    /// system data dirs are an empty folder, so the machine's own entries do not count.
    private func setup(name: String, dataHome: URL) throws -> Setup {
        let home = folder.appendingPathComponent("home-" + name, isDirectory: true)
        let dataDirs = folder.appendingPathComponent("empty-data-dirs", isDirectory: true)
        for made in [home, dataHome, dataDirs] {
            try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
        }
        let environment = HostEnvironment(variables: [
            "HOME": home.path, "PATH": "/usr/bin:/bin", "XDG_DATA_HOME": dataHome.path,
            "XDG_DATA_DIRS": dataDirs.path, "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
            "XDG_STATE_HOME": home.appendingPathComponent("state").path,
        ])
        let registry = ActivityRegistry(environment: environment)
        Builtins.install(into: registry)
        return Setup(name: name, registry: registry, environment: environment)
    }

    private func workloads() throws -> [Workload] {
        let pictures = folder.appendingPathComponent("pictures", isDirectory: true)
        try FileManager.default.createDirectory(at: pictures, withIntermediateDirectories: true)
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46])
        var files: [URL] = []
        for (name, bytes) in [("Photo 1.png", png), ("Photo 2.jpg", jpeg), ("Photo 3.png", png)] {
            let url = pictures.appendingPathComponent(name)
            try bytes.write(to: url)
            files.append(url)
        }
        func expected(_ offered: (Kind) -> Bool) -> Int { Self.mix.filter(offered).reduce(0) { $0 + $1.count } }
        return [
            Workload(name: "one PNG file", items: [files[0]], expected: expected(\.offeredForPhoto)),
            Workload(
                name: "3 image files + text + web link",
                items: files + ["Dinner at eight", URL(string: "https://recipes.example/notes/1")!],
                expected: expected(\.offeredForMixed)),
        ]
    }

    // MARK: Measuring

    /// Builds a sheet around `items` as BuildBenchmark does: controller made, presented
    /// headless, activity list read; only that is timed.
    private func build(_ items: [Any], with setup: Setup) -> Built {
        let start = benchClock.now
        let controller = ActivityViewController(activityItems: items, applicationActivities: nil, registry: setup.registry)
        controller.present()
        let offered = controller.activities
        let elapsed = start.duration(to: benchClock.now)
        let unavailable = controller.sheet.unavailable.map(\.activity)
        controller.dismiss()
        func targets(_ activities: [Activity]) -> Int {
            activities.filter { $0.activityType?.rawValue.hasPrefix(ShareTarget.typePrefix) ?? false }.count
        }
        return Built(
            elapsed: elapsed, offered: offered.count, offeredTargets: targets(offered),
            unavailableTargets: targets(unavailable))
    }

    func run() throws -> String {
        let none = try setup(name: "none", dataHome: folder.appendingPathComponent("data-none", isDirectory: true))
        let dataHome = folder.appendingPathComponent("data-200", isDirectory: true)
        try writeEntries(into: dataHome.appendingPathComponent("applications", isDirectory: true))
        let installed = try setup(name: "200", dataHome: dataHome)
        let workloads = try workloads()
        let runs = config.targetRuns
        let warmUp = config.quick ? 5 : 20

        // The first sheet of each setup reads its folders (the 200-target one parses 200 entries
        // with GIO and starts the file monitors); it is reported apart, not among the runs.
        note("share targets: first sheets (the catalogs are read)")
        let coldNone = build(workloads[0].items, with: none)
        let coldInstalled = build(workloads[0].items, with: installed)

        var table = Table(
            "sheet", "no targets: median (min–max)", "200 targets: median (min–max)", "200 ÷ none (medians)",
            "200 ÷ none (minimums)", "per target", "targets offered / unavailable (expected offered)")
        var allRight = true
        for workload in workloads {
            note("share targets: \(workload.name): \(warmUp) warm-up and \(runs) measured runs per setup, interleaved")
            for _ in 0..<warmUp {
                _ = build(workload.items, with: none)
                _ = build(workload.items, with: installed)
            }
            var noneSamples = Samples()
            var installedSamples = Samples()
            var last: Built?
            var baselineTargets = 0
            // Interleaved, and the order flips every run, so a slow moment of the machine or
            // whichever goes second falls on both alike.
            for run in 0..<runs {
                let noneFirst = run.isMultiple(of: 2)
                if !noneFirst { last = build(workload.items, with: installed) }
                let baseline = build(workload.items, with: none)
                if noneFirst { last = build(workload.items, with: installed) }
                noneSamples.add(baseline.elapsed)
                installedSamples.add(last!.elapsed)
                baselineTargets = max(baselineTargets, baseline.offeredTargets + baseline.unavailableTargets)
            }
            let built = last!
            let right =
                built.offeredTargets == workload.expected
                && built.offeredTargets + built.unavailableTargets == Self.targetCount && baselineTargets == 0
            allRight = allRight && right
            let perTarget = (installedSamples.median - noneSamples.median) / Self.targetCount
            table.add(
                workload.name, noneSamples.summary, installedSamples.summary,
                formatRatio(installedSamples.median.ratio(to: noneSamples.median)),
                formatRatio(installedSamples.min.ratio(to: noneSamples.min)), perTarget.formatted,
                "\(built.offeredTargets) / \(built.unavailableTargets) (\(workload.expected))" + (right ? "" : " — WRONG"))
        }

        let scans = [none, installed].map { ShareTargetExtensions.shared.catalog(for: $0.environment).scanCount }
        let catalogTargets = ShareTargetExtensions.shared.catalog(for: installed.environment).targets.count
        let scanVerdict =
            scans == [1, 1] ? "once each, as #16 requires" : "— NOT ONCE: a sheet scanned the folders again"
        let sheets = 1 + workloads.count * (warmUp + runs)
        return """
            ## Share targets: a sheet with 200 installed targets against none

            Both registries are set up as `share` sets up its own (`Builtins.install(into:)`: every built-in, and \
            the share-target extensions), each in a home of its own whose `XDG_DATA_DIRS` is an empty folder; they \
            differ only in `$XDG_DATA_HOME/applications`: empty, or \(Self.targetCount) target entries (\
            \(Self.mix.map { "\($0.count) × `\($0.accepts)`" }.joined(separator: ", ")); every 20th reached over \
            D-Bus, the rest `Exec=/bin/true %F`; half in the share row, half in actions). A sheet is timed as in \
            measurement 1: controller made, `present()` headless, `activities` read. \(runs) runs per setup and \
            sheet after \(warmUp) warm-up runs, interleaved with the order flipped every run; medians (min–max). \
            #16 allows 1.2× (medians).

            \(table.rendered)

            First sheet of each (one PNG file), which reads the folders and is not among the runs: no targets \
            \(coldNone.elapsed.formatted), 200 targets \(coldInstalled.elapsed.formatted) (the cold catalog: \
            \(formatRatio(coldInstalled.elapsed.ratio(to: coldNone.elapsed))) \
            the first sheet without targets; \(catalogTargets) targets read, \(coldInstalled.offeredTargets) offered). \
            Folders scanned (`TargetCatalog.scanCount`) over \(sheets) sheets per setup: \
            \(scans.map(String.init).joined(separator: " and ")) \(scanVerdict). \
            Targets offered as expected: \(allRight ? "yes" : "NO").
            """
    }
}
