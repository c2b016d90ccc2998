// Progress on long work (#14): Save to Photos counts the bytes it copies, so the command's
// progress line shows how much of how much; --verbose says each file copied.
import Foundation
import LocalTestSupport
import PhotoLibrary
import ShareSheet
import Testing

@Suite("Save to Photos: progress in bytes, steps with --verbose")
struct SaveProgressTests {
    @Test("the activity's progress is in bytes (kind .file): the sum of the files' sizes, full at the end")
    @MainActor
    func progressInBytes() async throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let png = try home.file("a.png", Fixtures.png)
        let mp4 = try home.file("clip.mp4", Fixtures.mp4(size: 3_000_000))
        let registry = ActivityRegistry()
        let activity = SaveToPhotosActivity(library: PhotoLibrary(picturesFolder: home.pictures, videosFolder: home.videos))
        registry.install(.saveToCameraRoll) { activity }
        let controller = ActivityViewController(activityItems: [png, mp4], applicationActivities: nil, registry: registry)
        controller.present(with: ScriptedPresenter(pick: .saveToCameraRoll))
        let outcome = await controller.waitForCompletion()
        #expect(outcome.completed, "\(String(describing: outcome.error))")
        #expect(activity.progress.kind == .file)
        #expect(activity.progress.totalUnitCount == Int64(Fixtures.png.count) + 3_000_000)
        #expect(activity.progress.fractionCompleted == 1)
    }

    @Test("--verbose says each file copied and where it went; without it nothing on standard error")
    func verbose() async throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let mp4 = try home.file("clip.mp4", Fixtures.mp4(size: 100_000))
        let run = try await Share.run(["--activity", "photos", "--verbose", mp4.path], home: home)
        #expect(run.status == 0, "\(run.standardError)")
        let saved = home.videos.appendingPathComponent("clip.mp4").path
        #expect(run.standardError.contains("share: activity: photos ("), "\(run.standardError)")
        #expect(
            run.standardError.contains("share: Save to Photos: copied \(mp4.path) (100000 bytes, public.mpeg-4) to \(saved)\n"),
            "\(run.standardError)")
        #expect(run.standardError.contains("share: result: photos: completed, saved (\(saved))\n"), "\(run.standardError)")
        let plain = try await Share.run(["--activity", "photos", mp4.path], home: home)
        #expect(plain.status == 0 && plain.standardError.isEmpty, "\(plain.standardError)")
    }
}
