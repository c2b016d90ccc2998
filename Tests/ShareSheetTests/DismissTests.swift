import Foundation
import ShareSheet
import ShareSheetTesting
import Testing

@MainActor
@Suite("Dismissing cancels providers and keeps finished work")
struct DismissTests {
    @Test("dismissing while a FileProvider writes cancels it and leaves no file behind")
    func fileProviderLeavesNothing() async throws {
        let started = Locked(false)
        let provider = FileProvider(filename: "Caramel.recipe") { url in
            let handle = try FileHandle(forWritingTo: {
                _ = FileManager.default.createFile(atPath: url.path, contents: nil)
                return url
            }())
            defer { try? handle.close() }
            started.withLock { $0 = true }
            // A writer that ignores cancellation: the provider must still clean up.
            for _ in 0..<400 {
                try handle.write(contentsOf: Data(repeating: 0x41, count: 1024))
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        let folder = provider.fileURL.deletingLastPathComponent()
        let fake = FakeActivity(type: .testA)
        let controller = ActivityViewController(activityItems: [provider], applicationActivities: [fake])
        controller.present()
        #expect(controller.select(.testA))
        while !started.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
        controller.dismiss()
        await controller.waitForProvidersToStop()
        #expect(FileManager.default.fileExists(atPath: provider.fileURL.path) == false)
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        #expect(leftovers.isEmpty)
        #expect(fake.preparedItems == nil)
    }

    @Test("a FileProvider that finishes leaves exactly its file, under its real name")
    func fileProviderWritesAtomically() async throws {
        let provider = FileProvider(filename: "Caramel", type: .json) { url in
            try Data("{\"sugar\": 200}".utf8).write(to: url)
        }
        #expect(provider.fileURL.lastPathComponent == "Caramel.json")
        #expect(FileManager.default.fileExists(atPath: provider.fileURL.path) == false)
        let fake = FakeActivity(type: .testA)
        let controller = ActivityViewController(activityItems: [provider], applicationActivities: [fake])
        controller.present(with: ScriptedPresenter(pick: .testA))
        _ = await controller.waitForCompletion()
        #expect(fake.preparedItems?.first as? URL == provider.fileURL)
        #expect(try String(contentsOf: provider.fileURL, encoding: .utf8) == "{\"sugar\": 200}")
        let folder = provider.fileURL.deletingLastPathComponent()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["Caramel.json"])
    }

    @Test("a file written before the dismissal is kept and reused by the next presentation")
    func finishedFileSurvivesDismissal() async throws {
        let writes = Locked(0)
        let provider = FileProvider(filename: "notes.txt") { url in
            writes.withLock { $0 += 1 }
            try Data("kept".utf8).write(to: url)
        }
        let slow = SlowFirstRun()
        let fake = FakeActivity(type: .testA)
        let controller = ActivityViewController(activityItems: [provider, slow], applicationActivities: [fake])
        controller.present()
        controller.select(.testA)
        while !FileManager.default.fileExists(atPath: provider.fileURL.path) {
            try await Task.sleep(for: .milliseconds(5))
        }
        controller.dismiss()
        await controller.waitForProvidersToStop()
        #expect(FileManager.default.fileExists(atPath: provider.fileURL.path))
        controller.present(with: ScriptedPresenter(pick: .testA))
        let outcome = await controller.waitForCompletion()
        #expect(outcome.completed)
        #expect(writes.withLock { $0 } == 1)
        #expect(fake.preparedItems?.first as? URL == provider.fileURL)
        #expect(slow.runs == 2)
    }

    @Test("dismissing cancels every running provider and they observe it")
    func dismissCancelsProviders() async {
        let log = CallLog()
        let providers = (0..<4).map {
            SleepingProvider(name: "p\($0)", placeholder: "x", result: "y", duration: .seconds(120), log: log)
        }
        let closureSawCancel = Locked(false)
        let closure = ActivityItemProvider(placeholder: "x") { _, _ in
            do { try await Task.sleep(for: .seconds(120)) } catch { closureSawCancel.withLock { $0 = true } }
            return nil
        }
        let controller = ActivityViewController(
            activityItems: providers + [closure], applicationActivities: [FakeActivity(type: .testA)])
        let recorder = CompletionRecorder()
        recorder.attach(to: controller)
        controller.present()
        #expect(controller.select(.testA))
        while log.entries(startingWith: "run").count < 4 { try? await Task.sleep(for: .milliseconds(5)) }
        controller.dismiss()
        #expect(recorder.calls.count == 1)
        #expect(recorder.calls.first?.type == nil)
        await controller.waitForProvidersToStop()
        for provider in providers { #expect(provider.observedCancellationAt != nil) }
        #expect(closureSawCancel.withLock { $0 })
        #expect(log.entries(startingWith: "done").isEmpty)
    }

    @Test("a second presentation reuses finished provider results")
    func reuseFinishedResults() async {
        let log = CallLog()
        let provider = SleepingProvider(name: "p", placeholder: "x", result: "made", duration: .milliseconds(10), log: log)
        let fake = FakeActivity(type: .testA, log: log)
        let controller = ActivityViewController(activityItems: [provider], applicationActivities: [fake])
        controller.present(with: ScriptedPresenter(pick: .testA))
        _ = await controller.waitForCompletion()
        controller.present(with: ScriptedPresenter(pick: .testA))
        let outcome = await controller.waitForCompletion()
        #expect(outcome.completed)
        #expect(provider.runCount == 1)
        #expect(fake.preparedItems?.first as? String == "made")
    }

    @Test("a provider cancelled by a dismissal runs again on the next presentation")
    func cancelledWorkIsRedone() async {
        let provider = SlowFirstRun()
        let fake = FakeActivity(type: .testA)
        let controller = ActivityViewController(activityItems: [provider], applicationActivities: [fake])
        controller.present()
        controller.select(.testA)
        while provider.runs == 0 { try? await Task.sleep(for: .milliseconds(5)) }
        controller.dismiss()
        await controller.waitForProvidersToStop()
        #expect(provider.sawCancellation)
        controller.present(with: ScriptedPresenter(pick: .testA))
        let outcome = await controller.waitForCompletion()
        #expect(outcome.completed)
        #expect(provider.runs == 2)
        #expect(fake.preparedItems?.first as? String == "made")
    }

    @Test("dismissing while an activity performs tells it to stop")
    func dismissDuringPerform() async {
        let fake = FakeActivity(type: .testA, ending: .never)
        let controller = ActivityViewController(activityItems: ["x"], applicationActivities: [fake])
        controller.present(with: ScriptedPresenter(pick: .testA))
        while controller.phase != .performing(.testA) { await Task.yield() }
        controller.dismiss()
        let outcome = await controller.waitForCompletion()
        #expect(outcome.activityType == nil)
        #expect(fake.cancelCount == 1)
        fake.activityDidFinish(true)
        #expect(controller.phase == .idle)
    }
}

/// A provider whose first run would take a minute (so a dismissal always catches it, however
/// busy the machine) and whose later runs are instant.
final class SlowFirstRun: ActivityItemProvider, @unchecked Sendable {
    private let state = Locked((runs: 0, sawCancellation: false))

    init() { super.init(placeholderItem: "x") }

    var runs: Int { state.withLock { $0.runs } }
    var sawCancellation: Bool { state.withLock { $0.sawCancellation } }

    override var item: Any {
        let run = state.withLock { state -> Int in
            state.runs += 1
            return state.runs
        }
        guard run == 1 else { return "made" }
        let end = Date().addingTimeInterval(60)
        while Date() < end {
            if isCancelled {
                state.withLock { $0.sawCancellation = true }
                return NSNull()
            }
            Thread.sleep(forTimeInterval: 0.002)
        }
        return "made"
    }
}
