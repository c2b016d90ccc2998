import ShareSheet

/// Where the header's choices about what is sent go (SPEC §13): the controller's `itemChoices`
/// and its item preparer, behind closures the presenter makes, so the pages hold no controller.
@MainActor
struct ItemChoosing {
    /// The choices now.
    var current: () -> ItemChoices
    /// Takes new choices and returns the sheet for them: leaving items out makes it again, so
    /// activities that cannot act on the rest move to "Not available". Nil once the controller
    /// is gone.
    var change: (ItemChoices) -> ActivitySheet?
    /// How many bytes the photos among the items would take at a size (with their location
    /// removed when the flag is true); nil when no preparer is installed or there is no photo.
    var byteCount: @MainActor ([Any], ImageSize, Bool) async -> Int?

    /// False when every item must go: no check leaves one out.
    var letsItemsBeLeftOut = true

    /// The choices of a controller.
    init(controller: ActivityViewController, letsItemsBeLeftOut: Bool = true) {
        self.letsItemsBeLeftOut = letsItemsBeLeftOut
        current = { [weak controller] in controller?.itemChoices ?? ItemChoices() }
        change = { [weak controller] choices in
            guard let controller else { return nil }
            controller.itemChoices = choices
            return controller.sheet
        }
        byteCount = { [weak controller] items, size, removingLocation in
            guard let preparer = controller?.itemPreparer else { return nil }
            return await preparer.byteCount(of: items, at: size, removingLocation: removingLocation)
        }
    }
}
