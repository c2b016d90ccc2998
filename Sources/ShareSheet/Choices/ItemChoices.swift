/// What the person changed about what is sent, between the pick and the activity (SPEC §13):
/// items left out, the size photos go at, whether their location goes with them, and edited
/// text. Item sources and providers are asked exactly as without choices; the choices apply to
/// the items they return.
public struct ItemChoices: Sendable, Equatable {
    /// The positions in `activityItems` (from 0) that are not sent. Left-out items never reach
    /// the activity, and the sheet offers what can act on the rest.
    public var leftOut: Set<Int>
    /// The size photos go at; nil for the activity's default (`[mail] image-size=`, else the
    /// original).
    public var imageSize: ImageSize?
    /// Whether location and camera serial numbers stay in photos; nil for the default: removed
    /// when the activity sends the items away from this machine, kept otherwise.
    public var keepsLocation: Bool?
    /// Text items as the person edited them, by position in `activityItems`.
    public var editedTexts: [Int: String]

    /// No change: every item, as it is, photos at the activity's default.
    public init(
        leftOut: Set<Int> = [], imageSize: ImageSize? = nil, keepsLocation: Bool? = nil, editedTexts: [Int: String] = [:]
    ) {
        self.leftOut = leftOut
        self.imageSize = imageSize
        self.keepsLocation = keepsLocation
        self.editedTexts = editedTexts
    }

    /// True when the person changed nothing.
    public var isEmpty: Bool { self == ItemChoices() }

    /// Whether location stays in photos that `activity` receives.
    @MainActor
    public func keepsLocation(for activity: Activity) -> Bool {
        keepsLocation ?? !activity.sendsItemsAway
    }
}
