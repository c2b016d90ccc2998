import Foundation
import ShareSheet
import Testing

@testable import ReadingList

/// A web link with a subject and link metadata, as an app's item source gives them.
@MainActor
private final class ArticleSource: ActivityItemSource {
    let url: URL
    let subject: String
    let metadata: LinkMetadata?

    init(url: URL, subject: String, metadata: LinkMetadata?) {
        self.url = url
        self.subject = subject
        self.metadata = metadata
    }

    func activityViewControllerPlaceholderItem(_ activityViewController: ActivityViewController) -> Any { url }

    func activityViewController(
        _ activityViewController: ActivityViewController, itemForActivityType activityType: ActivityType?
    ) -> Any? { url }

    func activityViewController(
        _ activityViewController: ActivityViewController, subjectForActivityType activityType: ActivityType?
    ) -> String { subject }

    func activityViewControllerLinkMetadata(_ activityViewController: ActivityViewController) -> LinkMetadata? {
        metadata
    }
}

@MainActor
@Suite("The Add to Reading List activity")
struct ActivityTests {
    private func registry(with list: ReadingList) -> ActivityRegistry {
        let registry = ActivityRegistry()
        registry.install(.addToReadingList) { AddToReadingListActivity(readingList: list) }
        return registry
    }

    private func share(_ items: [Any], to list: ReadingList, presets: InterfaceValues = [:]) async -> ShareOutcome {
        let controller = ActivityViewController(
            activityItems: items, applicationActivities: nil, registry: registry(with: list))
        controller.presetValues = presets
        controller.present(with: ScriptedPresenter(pick: .addToReadingList))
        return await controller.waitForCompletion()
    }

    @Test("title and preview come from the source's link metadata; returnedItems holds the stored URL")
    func linkMetadata() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let list = ReadingList(databaseURL: folder.database)
        let metadata = LinkMetadata()
        metadata.url = URL(string: "https://nshipster.com/uiactivityviewcontroller/")
        metadata.title = "UIActivityViewController - NSHipster"
        metadata.summary = "The share sheet, in depth."
        let source = ArticleSource(
            url: URL(string: "https://NSHipster.com/uiactivityviewcontroller/")!, subject: "Read this",
            metadata: metadata)
        let outcome = await share([source, "some text"], to: list)
        #expect(outcome.activityType == .addToReadingList)
        #expect(outcome.completed, "\(String(describing: outcome.error))")
        #expect(
            outcome.returnedItems?.compactMap { $0 as? URL } == [
                URL(string: "https://nshipster.com/uiactivityviewcontroller/")!
            ])
        #expect(outcome.disposition == .saved)
        #expect(outcome.location == folder.database.path)
        #expect(outcome.fallback == nil)
        let item = try #require(try list.items().first)
        #expect(item.title == "UIActivityViewController - NSHipster")
        #expect(item.previewText == "The share sheet, in depth.")
    }

    @Test("without metadata the sources' subject is the title; the caller's values win over both")
    func subjectAndPresets() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let list = ReadingList(databaseURL: folder.database)
        let page = URL(string: "https://example.com/article")!
        _ = await share([ArticleSource(url: page, subject: "The subject", metadata: nil)], to: list)
        #expect(try list.item(for: page)?.title == "The subject")
        _ = await share(
            [ArticleSource(url: page, subject: "The subject", metadata: nil)], to: list,
            presets: ["title": .text("Given title"), "preview": .text("Given preview")])
        #expect(
            try list.items().map(\.summary) == [
                "https://example.com/article | Given title | Given preview | \(Int(try list.items()[0].dateAdded.timeIntervalSince1970)) | unread"
            ])
    }

    @Test("several links are added together; a subject is not put on all of them")
    func severalLinks() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let list = ReadingList(databaseURL: folder.database)
        let urls = (1...3).map { URL(string: "https://example.com/\($0)")! }
        let outcome = await share(urls + ["a note"], to: list, presets: ["subject": .text("One subject")])
        #expect(outcome.completed)
        #expect(outcome.returnedItems?.compactMap { $0 as? URL } == urls)
        #expect(Set(try list.items().map(\.url)) == Set(urls))
        #expect(try list.items().allSatisfy { $0.title == nil })
    }

    @Test("ftp: and javascript: links are not offered, and a sheet of only those has no reading list")
    func otherSchemesNotOffered() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let list = ReadingList(databaseURL: folder.database)
        for address in ["ftp://ftp.example.com/file", "javascript:alert(1)"] {
            let controller = ActivityViewController(
                activityItems: [URL(string: address)!], applicationActivities: nil, registry: registry(with: list))
            #expect(!controller.activities.contains { $0.activityType == .addToReadingList })
            let reason = controller.sheet.unavailable.first { $0.activity.activityType == .addToReadingList }?.reason
            #expect(reason?.contains("http and https links only") == true, "\(reason ?? "none")")
        }
        #expect(try list.items().isEmpty)
    }

    @Test("a store that cannot be written fails the share with an I/O error and adds nothing")
    func unwritableStore() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        // The database's folder is a file: the store cannot be created.
        let blocker = folder.url.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: blocker)
        let list = ReadingList(databaseURL: blocker.appendingPathComponent("list.sqlite"))
        let outcome = await share([URL(string: "https://example.com/")!], to: list)
        #expect(!outcome.completed)
        let error = try #require(outcome.error as? ShareError)
        #expect(error.kind == .ioError)
        #expect(error.message.contains("not-a-folder"), "\(error.message)")
    }

    @Test("dismissing the sheet while the add waits for another writer keeps none of it")
    func dismissWhileWaiting() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let list = ReadingList(databaseURL: folder.database)
        #expect(try list.items().isEmpty)
        // Another connection holds the write lock, so the share's transaction has to wait.
        let other = try SQLiteConnection(path: folder.database.path, busyTimeout: .seconds(1))
        try other.execute("BEGIN IMMEDIATE")
        let urls = (1...3).map { URL(string: "https://example.com/\($0)")! }
        let controller = ActivityViewController(
            activityItems: urls, applicationActivities: nil, registry: registry(with: list))
        let activity = try #require(controller.activities.first { $0.activityType == .addToReadingList })
        // Tells when the share has begun its transaction: from then on it holds the list's lock.
        let begun = Locked(false)
        SQLite.failureHooks.withLock { hooks in
            hooks[folder.database.path] = { call, sql in
                if call == "sqlite3_exec", sql == "BEGIN IMMEDIATE" { begun.withLock { $0 = true } }
                return nil
            }
        }
        defer { SQLite.failureHooks.withLock { $0[folder.database.path] = nil } }
        controller.present(with: ScriptedPresenter(pick: .addToReadingList))
        while !begun.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
        #expect(activity.progress.totalUnitCount == 3)
        controller.dismiss()
        let outcome = await controller.waitForCompletion()
        #expect(outcome.activityType == nil && !outcome.completed)
        try other.execute("COMMIT")
        // The list's own lock is held until the share's transaction has ended: this waits for it.
        #expect(try list.items().isEmpty)
    }

    @Test("the activity is the catalog's Add to Reading List, in the action row")
    func descriptor() {
        let activity = AddToReadingListActivity(
            readingList: ReadingList(databaseURL: URL(fileURLWithPath: "/nonexistent/x.sqlite")))
        #expect(activity.activityType == .addToReadingList)
        #expect(activity.activityTitle == "Add to Reading List")
        #expect(activity.category == .action)
    }
}
