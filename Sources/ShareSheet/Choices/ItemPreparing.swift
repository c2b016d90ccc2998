/// Turns the items an activity receives into what the person chose to send (SPEC §13): photos
/// resized, their location and camera serial numbers removed, formats a receiver may not read
/// converted. The controller calls it after the item sources and providers have answered; the
/// preparer does its heavy work away from the main actor itself.
///
/// The built-ins module installs one on the registry (`ActivityRegistry.itemPreparation`), so
/// every sheet gets it; a controller may be given its own.
@MainActor
public protocol ItemPreparing: AnyObject {
    /// True when `prepare` would change something: a photo among `items` to resize, strip or
    /// convert. Asked first, so a share without photos goes on in the same turn.
    func needsPreparing(_ items: [Any], for activity: Activity, choices: ItemChoices) -> Bool

    /// The items `activity` receives, changed as `choices` and the activity ask: the same count
    /// and order, each item of the same kind (a photo's file URL becomes the URL of a private
    /// copy). The person's own files are never written.
    /// - Throws: a `ShareError` naming the item that could not be prepared, or `.cancelled`.
    func prepare(_ items: [Any], for activity: Activity, choices: ItemChoices) async throws -> [Any]

    /// How many bytes the photos among `items` would take at `size` (with location removed when
    /// `removingLocation`), or nil when there is no photo. Shown before sending; the work done
    /// is kept for the send.
    func byteCount(of items: [Any], at size: ImageSize, removingLocation: Bool) async -> Int?

    /// The share has ended: work under way stops, and the private copies go unless
    /// `keepingCopies` (the items were handed off to a program that reads them later).
    func finish(keepingCopies: Bool)
}
