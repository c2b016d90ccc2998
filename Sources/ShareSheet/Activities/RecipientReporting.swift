/// An activity that can say whom its share went to once it has performed: the device a name or
/// an address turned out to be, with the name a person knows it by.
///
/// What the activity was given is not always who it reached: AirDrop given "Ana's Pixel" finds
/// a device with a certificate fingerprint, and given a fingerprint (a device picked in the
/// sheet) knows the alias it showed. The share history asks this, so what it keeps names a
/// device for good and says what the person calls it.
///
/// Implementations must guarantee: `recipients` is empty until a perform has found whom it goes
/// to, and then names only those (a share queued for a device not found names that device when
/// it is known, else nothing).
@MainActor
public protocol RecipientReporting: AnyObject {
    /// Whom the last perform shared with (or queued the share for), in order.
    var recipients: [ShareRecipient] { get }
}

/// One person or device a share went to, as the activity found it.
public struct ShareRecipient: Sendable, Hashable {
    /// What names it for good: a device's certificate fingerprint, an address.
    public var id: String
    /// What a person calls it ("Ana's Pixel"), when that is known and differs from `id`.
    public var name: String?

    /// Describes a recipient.
    public init(id: String, name: String? = nil) {
        self.id = id
        self.name = name
    }
}
