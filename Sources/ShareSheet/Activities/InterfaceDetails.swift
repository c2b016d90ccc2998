import Foundation

/// Who the receiver of a message sees it from, as an interface shows it beside the fields
/// (Mail's From): the address, and whether it was made up because none is set up, so a
/// presenter can say so before the message goes rather than after.
///
/// A post's account is one too: "Account" over "Mastodon on social.example", with a note when
/// there is none and the post opens the service's page instead.
public struct InterfaceSender: Sendable, Hashable {
    /// What the line is called: "From" for a message, "Account" for a post.
    public var heading: String
    /// The address as it goes out ("Ana Lima <ana@example.org>"), or the account.
    public var address: String
    /// True when no sender is set up and `address` was made from the login and computer
    /// names: the receiver may not be able to answer it.
    public var isGuessed: Bool
    /// A sentence under the address, when there is something to say about it (no account set
    /// up); a presenter says a guess in its own words when this is nil.
    public var note: String?

    /// Describes a sender.
    public init(address: String, isGuessed: Bool, heading: String = "From", note: String? = nil) {
        self.heading = heading
        self.address = address
        self.isGuessed = isGuessed
        self.note = note
    }
}

/// The most a text field holds, counted the way the receiver counts (a service's characters:
/// a link as 23, an emoji as 2), for a presenter to count down as the person types.
@MainActor
public struct TextLimit {
    /// How many the receiver takes.
    public var maximum: Int
    /// How many `text` uses, counted the receiver's way.
    public var count: (String) -> Int

    /// Describes a limit.
    public init(maximum: Int, count: @escaping (String) -> Int) {
        self.maximum = maximum
        self.count = count
    }

    /// What is left of the limit for `text` (negative when over).
    public func remaining(for text: String) -> Int { maximum - count(text) }
}

/// A file that goes with what the interface sends (a mail's attachment), named and sized for a
/// person to check before it leaves.
public struct InterfaceAttachment: Sendable, Hashable {
    /// The name the receiver sees.
    public var name: String
    /// Its size in bytes; nil when it cannot be known now (a file that is not readable).
    public var byteCount: Int64?
    /// Its type as a UTType identifier or MIME type, for an icon; nil when unknown.
    public var type: String?
    /// The file itself, when it is one, for a presenter to draw a picture's thumbnail.
    public var fileURL: URL?

    /// Describes an attachment.
    public init(name: String, byteCount: Int64?, type: String? = nil, fileURL: URL? = nil) {
        self.name = name
        self.byteCount = byteCount
        self.type = type
        self.fileURL = fileURL
    }

    /// The size of the file at `url`; nil when it cannot be read now.
    public static func byteCount(ofFileAt url: URL) -> Int64? {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value
    }
}

/// A person whose address completes what is typed into an address field (Mail's To, Message's
/// To), from the person's own contacts.
public struct AddressCompletion: Sendable, Hashable {
    /// The contact's name ("Bo Berg").
    public var name: String
    /// The address or number that matched.
    public var address: String
    /// A file with the contact's photo, when there is one.
    public var photoPath: String?
    /// What goes into the field when the completion is chosen: "Bo Berg <bo@example.com>" for
    /// an e-mail address (so the receiver's program shows the name), the number for a phone.
    public var fieldText: String

    /// Describes a completion.
    public init(name: String, address: String, photoPath: String? = nil, fieldText: String) {
        self.name = name
        self.address = address
        self.photoPath = photoPath
        self.fieldText = fieldText
    }
}

/// The sort of address a field completes.
public enum AddressKind: Sendable, Hashable {
    case email
    case phone
}

extension InterfaceField.Kind {
    /// The sort of address the field takes, when it takes addresses a contact can fill.
    public var addressKind: AddressKind? {
        switch self {
        case .emailAddresses: return .email
        case .phoneNumbers: return .phone
        default: return nil
        }
    }
}
