import Foundation
import ShareSheet
import ShareSheetSystem

/// "Add to Reading List": adds the shared `http`/`https` pages to a `ReadingList`, all in one
/// transaction. The title and preview come from the caller's values (`--set title=…`,
/// `--subject`, `--set preview=…`), then the sources' link metadata, then their subject.
/// `returnedItems` holds the stored pages' URLs.
public final class AddToReadingListActivity: BuiltInActivity {
    private let givenReadingList: ReadingList?
    private var urls: [URL] = []
    private let cancelled = Locked(false)

    /// Makes the activity for `descriptor`, adding to `readingList`, or when nil to the list in
    /// the data folder of the activity's `hostEnvironment`.
    public init(descriptor: BuiltInActivityDescriptor, readingList: ReadingList? = nil) {
        givenReadingList = readingList
        super.init(descriptor: descriptor)
    }

    public override func prepare(withActivityItems activityItems: [Any]) {
        urls = activityItems.compactMap { $0 as? URL }
    }

    /// The store it would add to; the store is not opened.
    public override var route: ActivityRoute? {
        let database = givenReadingList?.databaseURL ?? ReadingList.databaseURL(in: hostEnvironment.directories)
        return ActivityRoute("adds links to the reading list in \(database.path)")
    }

    /// The title (or the subject) and the preview text of a single link.
    public override var presetKeys: Set<String> { ["title", "subject", "preview"] }

    public override func perform() {
        guard !urls.isEmpty else {
            activityDidFail(ShareError(.badData, "Add to Reading List: no http or https page among the items"))
            return
        }
        let newItems = urls.map { url in
            ReadingList.NewItem(url: url, title: title(for: url), previewText: previewText(for: url))
        }
        let readingList = givenReadingList ?? ReadingList(directories: hostEnvironment.directories)
        let cancelled = cancelled
        let progress = progress
        progress.totalUnitCount = Int64(newItems.count)
        Task.detached { [weak self] in
            do {
                let stored = try readingList.addItems(
                    newItems, isCancelled: { cancelled.withLock { $0 } },
                    progress: { progress.completedUnitCount = Int64($0) })
                await self?.finish(returning: stored.map(\.url), database: readingList.databaseURL)
            } catch is CancellationError {
                self?.activityDidFinish(false)
            } catch {
                self?.activityDidFail(error)
            }
        }
    }

    public override func cancel() {
        cancelled.withLock { $0 = true }
    }

    private func finish(returning urls: [URL], database: URL) {
        returnedItems = urls
        disposition = .saved
        location = database.path
        activityDidFinish(true)
    }

    // MARK: Title and preview

    private func preset(_ field: String) -> String? {
        guard let value = context.presetValues[field], !value.isEmpty else { return nil }
        return value.text
    }

    /// The link metadata a source gave for `url`; with one page and one metadata, that one.
    private func metadata(for url: URL) -> LinkMetadata? {
        let normalized = try? ReadingList.normalized(url)
        let matching = context.linkMetadata.first { metadata in
            [metadata.url, metadata.originalURL].contains { candidate in
                guard let candidate else { return false }
                return candidate == url || (try? ReadingList.normalized(candidate)) == normalized
            }
        }
        if let matching { return matching }
        return urls.count == 1 && context.linkMetadata.count == 1 ? context.linkMetadata[0] : nil
    }

    private func title(for url: URL) -> String? {
        // The caller's subject names one page; with several it would mislabel the others.
        let single = urls.count == 1
        return (single ? preset("title") ?? preset("subject") : nil)
            ?? metadata(for: url)?.title
            ?? (single ? context.subject : nil)
    }

    private func previewText(for url: URL) -> String? {
        (urls.count == 1 ? preset("preview") : nil) ?? metadata(for: url)?.summary
    }
}

extension AddToReadingListActivity {
    /// Makes the catalog's Add to Reading List, adding to `readingList` (the host environment's
    /// list unless given another).
    public convenience init(readingList: ReadingList? = nil) {
        let descriptor = BuiltInActivityDescriptor.catalog.first { $0.type == .addToReadingList }!
        self.init(descriptor: descriptor, readingList: readingList)
    }
}
