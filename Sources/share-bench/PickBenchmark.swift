import Foundation
import ShareSheet
import ShareSheetTesting

/// Measurement 2: eight providers after the pick, wall time against running the same work one
/// after another.
@MainActor
struct PickBenchmark {
    let config: Config
    static let pickType = ActivityType("org.sharesheet.bench.pick")

    /// One way of writing a provider, with the same work run serially for the baseline.
    struct Form {
        var name: String
        /// What the ratio would be with perfect overlap on this machine.
        var ideal: String
        var runs: Int
        var makeProvider: @MainActor (Int) -> ActivityItemProvider
        var serialWork: @MainActor () async -> Void
        /// The same work all at once without the sheet: what this machine allows right now.
        var concurrentWork: @MainActor () async -> Void
    }

    private func forms() -> [Form] {
        let count = config.pickProviders
        let cost = config.pickCost
        let log = CallLog()
        let sleepingBody: @Sendable (ActivityType, Progress) async throws -> Any? = { _, _ in
            try await Task.sleep(for: cost)
            return "document"
        }
        note("2. calibrating CPU-bound work of \(cost.formatted) on one core")
        let iterations = calibrateBusyWork(for: cost)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let sleeper: @Sendable (String) -> SleepingProvider = { name in
            SleepingProvider(name: name, placeholder: "document", result: "document", duration: cost, log: log)
        }
        return [
            Form(
                name: "Operation subclass (`SleepingProvider`, blocking sleep)", ideal: formatRatio(1 / Double(count)),
                runs: config.pickRuns,
                makeProvider: {
                    sleeper("p\($0)")
                },
                serialWork: {
                    for number in 0..<count {
                        _ = sleeper("s\(number)").item
                    }
                },
                concurrentWork: {
                    await onThreads(count) { number in
                        _ = sleeper("c\(number)").item
                    }
                }),
            Form(
                name: "closure form (`Task.sleep`)", ideal: formatRatio(1 / Double(count)), runs: config.pickRuns,
                makeProvider: { _ in ActivityItemProvider(placeholder: "document", sleepingBody) },
                serialWork: {
                    for _ in 0..<count { _ = try? await sleepingBody(Self.pickType, Progress(totalUnitCount: -1)) }
                },
                concurrentWork: {
                    await withTaskGroup(of: Void.self) { group in
                        for _ in 0..<count {
                            group.addTask { _ = try? await sleepingBody(Self.pickType, Progress(totalUnitCount: -1)) }
                        }
                    }
                }),
            Form(
                name: "Operation subclass, CPU-bound (busy loop)",
                ideal: formatRatio(1 / Double(min(count, cores))) + " (\(cores) cores)", runs: config.busyRuns,
                makeProvider: { _ in BusyProvider(iterations: iterations) },
                serialWork: {
                    for _ in 0..<count { busyWork(iterations) }
                },
                concurrentWork: {
                    await onThreads(count) { _ in busyWork(iterations) }
                }),
        ]
    }

    /// Presents a sheet of `providers`, picks the fake activity and times select → completion.
    private func timePick(_ providers: [ActivityItemProvider]) async -> (elapsed: Duration, ok: Bool) {
        let fake = FakeActivity(type: Self.pickType, title: "Bench pick")
        let controller = ActivityViewController(
            activityItems: providers, applicationActivities: [fake], registry: ActivityRegistry(descriptors: []))
        controller.present()
        let start = benchClock.now
        guard controller.select(Self.pickType) else { return (.zero, false) }
        let outcome = await controller.waitForCompletion()
        let elapsed = start.duration(to: benchClock.now)
        let ok =
            outcome.completed && outcome.activityType == Self.pickType
            && fake.preparedItems?.count == providers.count
        return (elapsed, ok)
    }

    func run() async -> String {
        let count = config.pickProviders
        var table = Table(
            "provider form", "serial sum", "all at once, no sheet", "through the sheet: select → completion",
            "sheet ÷ serial", "ideal", "sheet ÷ no sheet", "all items delivered")
        for form in forms() {
            note("2. \(form.name): \(form.runs) × (serial, all at once, through the sheet)")
            var serial = Samples()
            var direct = Samples()
            var sheet = Samples()
            var delivered = true
            for _ in 0..<form.runs {
                serial.add(await timedAsync { await form.serialWork() }.elapsed)
                direct.add(await timedAsync { await form.concurrentWork() }.elapsed)
                let result = await timePick((0..<count).map(form.makeProvider))
                sheet.add(result.elapsed)
                delivered = delivered && result.ok
            }
            table.add(
                form.name, serial.summary, direct.summary, sheet.summary,
                formatRatio(sheet.median.ratio(to: serial.median)), form.ideal,
                formatRatio(sheet.median.ratio(to: direct.median)), delivered ? "yes" : "NO")
        }
        return """
            ## 2. After the pick: \(count) providers of \(config.pickCost.formatted) each

            The sheet holds \(count) providers and offers one application activity (`FakeActivity`), in a registry \
            without built-ins. Timed from `select(_:)` to `waitForCompletion()` returning; the baseline is the same \
            providers' work run one after another in this process \
            (nominal sum \((config.pickCost * count).formatted)). \
            "all at once, no sheet" runs the same work on \(count) plain threads (a task group for the closure form): \
            what the machine allows at that moment, so "sheet ÷ no sheet" near 1× means the sheet adds nothing to \
            plain concurrency, even when other work shares the cores. \(config.pickRuns) runs of each \
            (\(config.busyRuns) for the CPU-bound form), interleaved; medians (min–max).

            \(table.rendered)
            """
    }
}

/// Runs `body(0..<count)` on `count` threads of their own and waits for all of them.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) async {
    await withTaskGroup(of: Void.self) { group in
        for number in 0..<count {
            group.addTask {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    Thread.detachNewThread {
                        body(number)
                        continuation.resume()
                    }
                }
            }
        }
    }
}
