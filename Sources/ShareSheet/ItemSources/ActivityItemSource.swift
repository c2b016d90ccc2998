import Foundation

/// Supplies an item lazily, shaped for the activity the person picks: the UIActivityItemSource
/// equivalent, with UIKit's Swift spellings so ported code compiles unchanged.
///
/// Implementations must guarantee:
/// - `activityViewControllerPlaceholderItem(_:)` is cheap and returns a value of the same kind as
///   the real item; only its kind decides which activities are offered.
/// - `activityViewController(_:itemForActivityType:)` returns quickly (it runs on the main
///   actor); slow work belongs in an `ActivityItemProvider`. Returning nil leaves the item out.
@MainActor
public protocol ActivityItemSource: AnyObject {
    /// A stand-in of the same kind as the real item. Asked once, while the sheet is built.
    func activityViewControllerPlaceholderItem(_ activityViewController: ActivityViewController) -> Any

    /// The real item for the chosen activity; nil leaves this item out.
    func activityViewController(
        _ activityViewController: ActivityViewController, itemForActivityType activityType: ActivityType?
    ) -> Any?

    /// A subject for services that have one (Mail). Defaults to "".
    func activityViewController(
        _ activityViewController: ActivityViewController, subjectForActivityType activityType: ActivityType?
    ) -> String

    /// The uniform type identifier of a `Data` item: asked first with nil while the sheet is
    /// built, then with the chosen type. Defaults to "" (not typed).
    func activityViewController(
        _ activityViewController: ActivityViewController, dataTypeIdentifierForActivityType activityType: ActivityType?
    ) -> String

    /// A preview image of about `suggestedSize` points. Defaults to nil.
    func activityViewController(
        _ activityViewController: ActivityViewController, thumbnailImageForActivityType activityType: ActivityType?,
        suggestedSize size: CGSize
    ) -> Image?

    /// Metadata for the sheet's header preview, so nothing has to be fetched. Defaults to nil.
    func activityViewControllerLinkMetadata(_ activityViewController: ActivityViewController) -> LinkMetadata?
}

extension ActivityItemSource {
    public func activityViewController(
        _ activityViewController: ActivityViewController, subjectForActivityType activityType: ActivityType?
    ) -> String { "" }

    public func activityViewController(
        _ activityViewController: ActivityViewController, dataTypeIdentifierForActivityType activityType: ActivityType?
    ) -> String { "" }

    public func activityViewController(
        _ activityViewController: ActivityViewController, thumbnailImageForActivityType activityType: ActivityType?,
        suggestedSize size: CGSize
    ) -> Image? { nil }

    public func activityViewControllerLinkMetadata(_ activityViewController: ActivityViewController) -> LinkMetadata? {
        nil
    }
}
