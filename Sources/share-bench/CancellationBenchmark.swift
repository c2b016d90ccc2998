import Foundation
import ShareSheet
import ShareSheetTesting

/// Measurement 3: dismissing while providers run, and how soon every provider notices.
@MainActor
struct CancellationBenchmark {
    let config: Config
    static let pickType = ActivityType("org.sharesheet.bench.cancel")

    /// Providers of one form, with a way to read when each noticed cancellation.
    private struct Batch {
        var providers: [ActivityItemProvider]
        /// How many providers had begun their work.
        var started: () -> Int
        /// When each provider noticed cancellation, as time since `dismissed`.
        var observed: (_ dismissed: (instant: ContinuousClock.Instant, date: Date)) -> [Duration]
        /// Files or folders left in the providers' folders.
        var leftovers: () -> Int?
    }

    private struct Form {
        var name: String
        var make: @MainActor () -> Batch
    }

    /// Instants shared between provider tasks and the benchmark.
    private final class Instants: Sendable {
        private let values = Locked<[ContinuousClock.Instant]>([])
        func record() { values.withLock { $0.append(benchClock.now) } }
        var all: [ContinuousClock.Instant] { values.withLock { $0 } }
    }

    private func forms() -> [Form] {
        let count = config.cancelProviders
        let cost = config.cancelCost
        return [
            Form(name: "Operation subclass (`SleepingProvider`, polls `isCancelled` every 2 ms)") {
                let log = CallLog()
                let providers = (0..<count).map {
                    SleepingProvider(
                        name: "p\($0)", placeholder: "document", result: "document", duration: cost, log: log)
                }
                return Batch(
                    providers: providers,
                    started: { providers.filter { $0.runCount > 0 }.count },
                    observed: { dismissed in
                        providers.compactMap(\.observedCancellationAt).map {
                            .seconds($0.timeIntervalSince(dismissed.date))
                        }
                    },
                    leftovers: { nil })
            },
            Form(name: "closure form (`Task.sleep`)") {
                let started = WorkCounter()
                let observed = Instants()
                let providers = (0..<count).map { _ in
                    ActivityItemProvider(placeholder: "document") { _, _ in
                        started.increment()
                        do {
                            try await Task.sleep(for: cost)
                        } catch {
                            observed.record()
                            throw error
                        }
                        return "document"
                    }
                }
                return Batch(
                    providers: providers, started: { started.value },
                    observed: { dismissed in observed.all.map { dismissed.instant.duration(to: $0) } },
                    leftovers: { nil })
            },
            Form(name: "`FileProvider` (closure form, writes 4 KiB every 10 ms, checks `Task.isCancelled`)") {
                let started = WorkCounter()
                let observed = Instants()
                let chunk = Data(repeating: 0x2A, count: 4096)
                let providers = (0..<count).map { number in
                    FileProvider(filename: "Recipe \(number).json", type: nil) { (url: URL) async throws -> Void in
                        started.increment()
                        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
                        let handle = try FileHandle(forWritingTo: url)
                        defer { try? handle.close() }
                        let end = benchClock.now + cost
                        do {
                            while benchClock.now < end {
                                try Task.checkCancellation()
                                try handle.write(contentsOf: chunk)
                                try await Task.sleep(for: .milliseconds(10))
                            }
                        } catch {
                            observed.record()
                            throw error
                        }
                    }
                }
                return Batch(
                    providers: providers, started: { started.value },
                    observed: { dismissed in observed.all.map { dismissed.instant.duration(to: $0) } },
                    leftovers: {
                        providers.reduce(0) { total, provider in
                            let folder = provider.fileURL.deletingLastPathComponent()
                            let left = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
                            return total + left.count
                        }
                    })
            },
        ]
    }

    private func controller(for batch: Batch) -> ActivityViewController {
        ActivityViewController(
            activityItems: batch.providers,
            applicationActivities: [FakeActivity(type: Self.pickType, title: "Bench cancel")],
            registry: ActivityRegistry(descriptors: []))
    }

    /// The same providers left alone: select → every provider done.
    private func uncancelledRun(_ form: Form) async -> Duration {
        let batch = form.make()
        let controller = controller(for: batch)
        controller.present()
        let start = benchClock.now
        controller.select(Self.pickType)
        await controller.waitForProvidersToStop()
        let elapsed = start.duration(to: benchClock.now)
        _ = await controller.waitForCompletion()
        return elapsed
    }

    private struct Dismissal {
        var dismissCall: Duration
        var allObserved: Duration?
        var stopped: Duration
        var started: Int
        var observedCount: Int
        var leftovers: Int?
        var completionWasDismissal: Bool
    }

    private func dismissedRun(_ form: Form) async -> Dismissal {
        let batch = form.make()
        let controller = controller(for: batch)
        controller.present()
        controller.select(Self.pickType)
        try? await Task.sleep(for: config.dismissAfter)
        let started = batch.started()
        let dismissed = (instant: benchClock.now, date: Date())
        controller.dismiss()
        let dismissCall = dismissed.instant.duration(to: benchClock.now)
        await controller.waitForProvidersToStop()
        let stopped = dismissed.instant.duration(to: benchClock.now)
        let outcome = await controller.waitForCompletion()
        let observed = batch.observed(dismissed)
        return Dismissal(
            dismissCall: dismissCall,
            allObserved: observed.count == batch.providers.count ? observed.max() : nil,
            stopped: stopped, started: started, observedCount: observed.count, leftovers: batch.leftovers(),
            completionWasDismissal: outcome.activityType == nil && !outcome.completed && outcome.returnedItems == nil
                && outcome.error == nil)
    }

    func run() async -> String {
        let count = config.cancelProviders
        var table = Table(
            "provider form", "left alone: select → stopped", "`dismiss()` call",
            "dismiss → all observed cancellation", "dismiss → `waitForProvidersToStop()`", "stop ÷ remaining work",
            "observed", "files left")
        for form in forms() {
            note("3. \(form.name): \(config.cancelBaselineRuns) uncancelled run(s) of \(config.cancelCost.formatted)")
            var baseline = Samples()
            for _ in 0..<config.cancelBaselineRuns { baseline.add(await uncancelledRun(form)) }
            note("3. \(form.name): \(config.cancelRuns) dismissals after \(config.dismissAfter.formatted)")
            var dismissCall = Samples()
            var observed = Samples()
            var stopped = Samples()
            var observedCounts: [String] = []
            var leftovers = 0
            var sawLeftoverCheck = false
            var allFine = true
            for _ in 0..<config.cancelRuns {
                let run = await dismissedRun(form)
                dismissCall.add(run.dismissCall)
                if let all = run.allObserved { observed.add(all) }
                stopped.add(run.stopped)
                observedCounts.append("\(run.observedCount)/\(run.started)")
                if let left = run.leftovers {
                    leftovers += left
                    sawLeftoverCheck = true
                }
                allFine = allFine && run.completionWasDismissal && run.started == count
            }
            let remaining = baseline.median - config.dismissAfter
            let counts = Set(observedCounts)
            table.add(
                form.name, baseline.summary, dismissCall.summary,
                observed.count == config.cancelRuns ? observed.summary : "\(observed.summary), not all observed",
                stopped.summary, formatRatio(stopped.median.ratio(to: remaining)),
                (counts.count == 1 ? counts.first! : observedCounts.joined(separator: ", ")) + (allFine ? "" : " (!)"),
                sawLeftoverCheck ? String(leftovers) : "—")
        }
        return """
            ## 3. Dismissing while providers run

            \(count) providers that would each take \(config.cancelCost.formatted) run after the pick; the sheet is \
            dismissed \(config.dismissAfter.formatted) later. "observed" is when each provider itself noticed the \
            cancellation (`SleepingProvider.observedCancellationAt`, or the instant the closure caught \
            `CancellationError`), worst of the \(count); "`waitForProvidersToStop()`" is when the controller saw every \
            provider return. The baseline is the same providers left alone, measured here \
            (\(config.cancelBaselineRuns) run); "remaining work" is that minus the \(config.dismissAfter.formatted) \
            before the dismissal. \(config.cancelRuns) dismissals per form; medians (min–max). \
            "observed" counts providers that noticed / providers that had started at the dismissal; \
            "files left" counts anything left in the `FileProvider`s' folders after they stopped.

            \(table.rendered)
            """
    }
}
