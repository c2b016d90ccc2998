import Foundation

/// One page in the reading list.
public struct ReadingListItem: Sendable, Hashable, CustomStringConvertible {
    /// The page's address: always `http` or `https`, scheme and host in lower case.
    public var url: URL
    /// The page's title, if one was given.
    public var title: String?
    /// A few lines about the page, if given.
    public var previewText: String?
    /// When the page was added (or added again), to the second.
    public var dateAdded: Date
    /// True once the page is marked as read.
    public var isRead: Bool

    /// Describes an item; `dateAdded` is kept to the second, as the store keeps it.
    public init(
        url: URL, title: String? = nil, previewText: String? = nil, dateAdded: Date = Date(), isRead: Bool = false
    ) {
        self.url = url
        self.title = ReadingListItem.cleaned(title)
        self.previewText = ReadingListItem.cleaned(previewText)
        self.dateAdded = Date(timeIntervalSince1970: dateAdded.timeIntervalSince1970.rounded(.down))
        self.isRead = isRead
    }

    /// The URL's text, so `returnedItems` and logs show the address.
    public var description: String { url.absoluteString }

    /// Text without surrounding white space; nil when nothing is left.
    static func cleaned(_ text: String?) -> String? {
        guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        return trimmed
    }
}
