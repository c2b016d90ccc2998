import Foundation

/// A share that leaves the machine and could not go when it was made: an AirDrop to a device
/// that was not nearby, a post while offline, a share target whose service was down (SPEC §14).
/// It waits in the share queue with its items copied beside it, and goes later, once.
///
/// The mail and text-message outboxes keep their own formats (a Maildir, a JSON file each);
/// this is the queue for every other kind.
public struct QueuedShare: Sendable, Codable, Equatable {
    /// What kind of share waits: which sender takes it.
    public struct Kind: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// Files or text to a LocalSend device.
        public static let airDrop = Kind("airdrop")
        /// A post to a social service account.
        public static let post = Kind("post")
        /// Files or text to a share target over D-Bus.
        public static let shareTarget = Kind("share-target")
    }

    /// What has to change before sending again is worth trying: a queue watcher tries an entry
    /// when its condition comes true, and `share outbox flush` tries every entry at once.
    public enum Condition: Sendable, Codable, Equatable {
        /// The device with this certificate fingerprint (or, with none, this alias) shows up in
        /// discovery.
        case device(fingerprint: String?, alias: String)
        /// The network comes back (GNetworkMonitor says it is available).
        case network
        /// The D-Bus name gets an owner on the session bus.
        case busName(String)
    }

    /// One item, stored in the entry's `items/` folder or inline.
    public struct Item: Sendable, Codable, Equatable {
        /// The file's name in `items/` (also the name the receiver sees); nil for a text item.
        public var file: String?
        /// The text of a text item.
        public var text: String?
        /// The MIME type, when known.
        public var mimeType: String?

        /// A file item named `file` inside the entry.
        public static func file(_ name: String, mimeType: String? = nil) -> Item {
            Item(file: name, text: nil, mimeType: mimeType)
        }

        /// A text item.
        public static func text(_ text: String) -> Item { Item(file: nil, text: text, mimeType: "text/plain") }
    }

    /// The entry's id: its folder's name, which carries the writer's PID like a Maildir name.
    public var id: String
    public var kind: Kind
    /// The activity type's raw value (`com.apple.UIKit.activity.AirDrop`).
    public var activity: String
    /// Who or what it goes to, as the sender needs it: a device's fingerprint or address, an
    /// account id, a share target's id.
    public var target: String
    /// The same in words, for a person: "Ana's Pixel", "@ana@example.social".
    public var targetTitle: String
    /// Why it waits, as a sentence: "Ana's Pixel was not nearby."
    public var reason: String
    /// When it was queued.
    public var created: Date
    /// When it comes true, sending again is worth trying.
    public var waitsFor: Condition
    /// What the sender needs besides the items (a post's visibility, a device's port…). Never
    /// a secret: PINs and tokens are asked again or read from the keyring.
    public var parameters: [String: String]
    public var items: [Item]
    /// How many sends were tried since it was queued.
    public var attempts: Int
    /// The last attempt's error, in words.
    public var lastError: String?
    /// True when an earlier attempt was interrupted after the data may have reached the other
    /// side and the person asked for it to be sent again: it may arrive twice, and the list
    /// says so.
    public var mayArriveTwice: Bool

    /// Describes a share to queue; the queue gives it its id and time.
    public init(
        kind: Kind, activity: String, target: String, targetTitle: String, reason: String, waitsFor: Condition,
        parameters: [String: String] = [:], items: [Item]
    ) {
        id = ""
        self.kind = kind
        self.activity = activity
        self.target = target
        self.targetTitle = targetTitle
        self.reason = reason
        created = Date()
        self.waitsFor = waitsFor
        self.parameters = parameters
        self.items = items
        attempts = 0
        lastError = nil
        mayArriveTwice = false
    }
}
