import CGIO
import Foundation
import ShareSheet
import ShareSheetTesting
import ShareTargets
import Testing
import UniformTypes

/// Targets on a sheet built in this process: which items they are offered for, where they sit,
/// why one is not offered, and that the catalog is read once and again only after a change.
@MainActor
@Suite("Share targets on the sheet")
final class TargetSheetTests {
    let folder: TargetFolder
    let extensions = ShareTargetExtensions()

    init() throws {
        folder = try TargetFolder()
    }

    deinit { folder.remove() }

    /// A registry with every built-in on in-memory backends and the targets of the test's folders.
    private func registry() -> ActivityRegistry {
        let registry = ActivityRegistry(environment: folder.environment)
        InMemoryBackends().install(into: registry)
        registry.extensions = extensions
        return registry
    }

    private func sheet(_ items: [Any], applicationActivities: [Activity] = []) -> ActivitySheet {
        ActivityViewController(activityItems: items, applicationActivities: applicationActivities, registry: registry()).sheet
    }

    private func reason(_ name: String, on sheet: ActivitySheet) -> String? {
        sheet.unavailable.first { $0.activity.activityType?.rawValue == "org.sharesheet.target." + name }?.reason
    }

    private func offered(_ sheet: ActivitySheet) -> [String] { sheet.activities.compactMap { $0.activityType?.rawValue } }

    private func saver(_ keys: [String: String] = [:]) throws {
        try folder.entry(
            "org.example.Saver",
            [
                "Name": "Saver", "Icon": "document-save", "Exec": "/bin/true %F", "X-ShareSheet-Accepts": "public.image[1-2]",
                "X-ShareSheet-Category": "action",
            ].merging(keys) { $1 })
    }

    @Test("a target is offered for the types it accepts, after the application's activities and before the built-ins of its row")
    func offeredInItsRow() throws {
        try saver()
        try folder.entry("org.example.Poster", ["Name": "Poster", "X-ShareSheet-DBus": "org.example.Poster", "X-ShareSheet-Accepts": "public.image;text/plain"])
        let photo = try folder.photo()
        let application = FakeActivity(type: ActivityType("org.example.app.edit"), title: "Edit", category: .action)
        let sheet = sheet([photo], applicationActivities: [application])
        let actions = sheet.actionRow.compactMap { $0.activityType?.rawValue }
        #expect(Array(actions.prefix(2)) == ["org.example.app.edit", "org.sharesheet.target.org.example.Saver"])
        #expect(actions.contains(ActivityType.copyToPasteboard.rawValue))
        #expect(sheet.shareRow.first?.activityType?.rawValue == "org.sharesheet.target.org.example.Poster")
        let target = try #require(sheet.actionRow[1] as? TargetActivity)
        #expect(target.activityTitle == "Saver" && target.iconName == "document-save")
    }

    @Test("a target is not offered for other types, and says what it takes")
    func notOfferedForOtherTypes() throws {
        try saver()
        let sheet = sheet(["quarterly numbers"])
        #expect(!offered(sheet).contains("org.sharesheet.target.org.example.Saver"))
        #expect(reason("org.example.Saver", on: sheet) == "it takes images (public.image, at most 2), and got text")
    }

    @Test("a count limit is respected: more items than the limit, or fewer, is not offered")
    func countLimit() throws {
        try saver()
        try folder.entry("org.example.Pair", ["Name": "Pair", "Exec": "/bin/true %F", "X-ShareSheet-Accepts": "public.image[2-]"])
        let photos = try (1...3).map { try folder.photo("photo \($0).png") }
        let two = sheet(Array(photos.prefix(2)))
        #expect(offered(two).contains("org.sharesheet.target.org.example.Saver"))
        #expect(offered(two).contains("org.sharesheet.target.org.example.Pair"))
        let three = sheet(photos)
        #expect(reason("org.example.Saver", on: three) == "it takes images (public.image, at most 2), and got 3 images")
        let one = sheet([photos[0]])
        #expect(reason("org.example.Pair", on: one) == "it takes images (public.image, 2 or more), and got 1 images")
        // Items the target does not take do not count, and are not given to it.
        #expect(offered(sheet(Array(photos.prefix(2)) + ["caption"])).contains("org.sharesheet.target.org.example.Saver"))
    }

    @Test("turned off in [targets] disabled=, it is listed with the way to turn it on")
    func disabled() throws {
        try saver()
        try FileManager.default.createDirectory(at: folder.configuration.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "[targets]\ndisabled=org.example.Other;org.example.Saver\n".write(to: folder.configuration, atomically: true, encoding: .utf8)
        let sheet = sheet([try folder.photo()])
        // The fact and the way to turn it on; the command words it (`share targets enable …`).
        let saver = try #require(sheet.unavailable.first { $0.activity.activityType?.rawValue == "org.sharesheet.target.org.example.Saver" })
        #expect(saver.reason == "turned off")
        #expect(
            sheet.unavailability(of: saver.activity)
                == Unavailability("turned off", setting: ShareError.Setting(group: "targets", "org.example.Saver"), fix: .enableTarget))
    }

    @Test("a missing program, a broken key and no way to reach it are each listed with the reason")
    func brokenEntries() throws {
        try folder.entry("org.example.Gone", ["Name": "Gone", "Exec": "/nonexistent/gone %F", "X-ShareSheet-Accepts": "public.image"])
        try folder.entry("org.example.Typo", ["Name": "Typo", "Exec": "/bin/true %F", "X-ShareSheet-Accepts": "public.imag"])
        try folder.entry("org.example.NoFiles", ["Name": "No files", "Exec": "/bin/true", "X-ShareSheet-Accepts": "public.image"])
        try folder.entry("org.example.Row", ["Name": "Row", "Exec": "/bin/true %U", "X-ShareSheet-Accepts": "public.image", "X-ShareSheet-Category": "middle"])
        let sheet = sheet([try folder.photo()])
        #expect(reason("org.example.Gone", on: sheet) == "its program /nonexistent/gone is not installed")
        #expect(reason("org.example.Typo", on: sheet) == "X-ShareSheet-Accepts: public.imag: not a uniform type identifier or MIME type this system knows")
        #expect(reason("org.example.NoFiles", on: sheet) == "Exec= takes no file or link (%f, %F, %u or %U), and no X-ShareSheet-DBus= is given")
        #expect(reason("org.example.Row", on: sheet) == "X-ShareSheet-Category=middle: the row is share or action")
    }

    @Test("Hidden=, a TryExec= program not installed, and the first folder's entry of an id")
    func hiddenAndPrecedence() throws {
        let keys = ["Name": "System", "Exec": "/bin/true %F", "X-ShareSheet-Accepts": "public.image"]
        try folder.entry("org.example.Masked", in: folder.systemApplications, keys)
        try folder.entry("org.example.Masked", ["Hidden": "true"].merging(keys) { $1 })
        try folder.entry("org.example.Later", in: folder.systemApplications, keys)
        try folder.entry("org.example.Later", keys.merging(["Name": "Mine"]) { $1 })
        try folder.entry("org.example.NotHere", keys.merging(["TryExec": "/nonexistent/not-here"]) { $1 })
        let vendor = folder.applications.appendingPathComponent("vendor")
        try FileManager.default.createDirectory(at: vendor, withIntermediateDirectories: true)
        try folder.entry("tool", in: vendor, keys.merging(["Name": "Vendor tool"]) { $1 })
        let targets = extensions.catalog(for: folder.environment).targets
        #expect(targets.map(\.desktopID) == ["org.example.Later.desktop", "vendor-tool.desktop"])
        #expect(targets.map(\.title) == ["Mine", "Vendor tool"])
    }

    @Test("the catalog is read once for many sheets, and again only after an entry is removed")
    func cachedAndRefreshed() async throws {
        try saver()
        let photo = try folder.photo()
        for _ in 0..<50 { _ = sheet([photo]) }
        let catalog = extensions.catalog(for: folder.environment)
        #expect(catalog.scanCount == 1)
        try FileManager.default.removeItem(at: folder.applications.appendingPathComponent("org.example.Saver.desktop"))
        // The folder's monitor reports on this thread's main context, as the service's loop runs it.
        let deadline = Date().addingTimeInterval(10)
        while catalog.scanCount == 1, Date() < deadline {
            while g_main_context_iteration(nil, 0) != 0 {}
            if !catalog.targets.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(catalog.targets.isEmpty)
        #expect(catalog.scanCount == 2)
        #expect(!offered(sheet([photo])).contains("org.sharesheet.target.org.example.Saver"))
    }
}
