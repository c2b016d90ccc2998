import Foundation

/// The first pages of what an activity makes, drawn as pictures (`ActivityInterface.preview`):
/// Print's pages as they will come out of the printer or into the PDF.
public struct PreviewPages: Sendable, Equatable {
    /// PNG images of the first pages, in order; fewer than `pageCount` for a long document.
    public var images: [Data]
    /// How many pages the whole result has.
    public var pageCount: Int

    /// Describes drawn pages.
    public init(images: [Data], pageCount: Int) {
        self.images = images
        self.pageCount = pageCount
    }
}
