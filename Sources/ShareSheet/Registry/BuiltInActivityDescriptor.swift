/// What the sheet knows about a built-in activity before any backend is installed.
public struct BuiltInActivityDescriptor: Sendable {
    /// The activity type.
    public let type: ActivityType
    /// The title people see.
    public let title: String
    /// The name the `share` command uses (`mail`, `reading-list`).
    public let name: String
    /// The row it appears in.
    public let category: Activity.Category
    /// The items it accepts.
    public let acceptance: ItemAcceptance
    /// Why it can never be offered, when that is so (a closed service).
    public let retiredReason: String?

    /// Describes a built-in activity.
    public init(
        type: ActivityType, title: String, name: String, category: Activity.Category,
        acceptance: ItemAcceptance, retiredReason: String? = nil
    ) {
        self.type = type
        self.title = title
        self.name = name
        self.category = category
        self.acceptance = acceptance
        self.retiredReason = retiredReason
    }
}

extension BuiltInActivityDescriptor {
    /// Posting, mail, messages and nearby devices send the items away from this machine
    /// (SPEC §13); saving, copying, printing and opening keep them here.
    public var sendsItemsAway: Bool {
        Self.sendingAway.contains(type)
    }

    /// Mail, messages and posts reach receivers that may not read HEIC, WebP or AVIF; a nearby
    /// device gets the photo as it is.
    public var needsWidelyReadImages: Bool { sendsItemsAway && type != .airDrop }

    /// The configuration group whose `image-size=` applies: the activity's own for Mail and
    /// Message, `nearby` for AirDrop, `social` for every posting service.
    public var imageSizeSettingGroup: String? {
        switch type {
        case .mail: "mail"
        case .message: "message"
        case .airDrop: "nearby"
        default: sendsItemsAway ? "social" : nil
        }
    }

    private static let sendingAway: Set<ActivityType> = [
        .postToFacebook, .postToTwitter, .postToWeibo, .postToTencentWeibo, .postToFlickr, .postToVimeo, .postToMastodon,
        .message, .mail, .airDrop,
    ]

    /// The built-ins of SPEC §1.7, share row first, each row in the table's order.
    public static let catalog: [BuiltInActivityDescriptor] = [
        .init(type: .postToFacebook, title: "Facebook", name: "facebook", category: .share, acceptance: .socialPost),
        .init(type: .postToTwitter, title: "Twitter", name: "twitter", category: .share, acceptance: .socialPost),
        .init(type: .postToWeibo, title: "Weibo", name: "weibo", category: .share, acceptance: .socialPostWithAssets),
        .init(
            type: .postToTencentWeibo, title: "Tencent Weibo", name: "tencent-weibo", category: .share,
            acceptance: .socialPostWithAssets, retiredReason: "the service closed in 2020"),
        .init(type: .postToFlickr, title: "Flickr", name: "flickr", category: .share, acceptance: .flickr),
        .init(type: .postToVimeo, title: "Vimeo", name: "vimeo", category: .share, acceptance: .vimeo),
        .init(type: .message, title: "Message", name: "message", category: .share, acceptance: .message),
        .init(type: .mail, title: "Mail", name: "mail", category: .share, acceptance: .mail),
        .init(type: .print, title: "Print", name: "print", category: .action, acceptance: .print),
        .init(type: .copyToPasteboard, title: "Copy", name: "copy", category: .action, acceptance: .copyToPasteboard),
        .init(
            type: .assignToContact, title: "Assign to Contact", name: "contact", category: .action,
            acceptance: .assignToContact),
        .init(
            type: .saveToCameraRoll, title: "Save to Photos", name: "photos", category: .action,
            acceptance: .saveToCameraRoll),
        .init(
            type: .addToReadingList, title: "Add to Reading List", name: "reading-list", category: .action,
            acceptance: .addToReadingList),
        .init(type: .airDrop, title: "AirDrop", name: "airdrop", category: .action, acceptance: .airDrop),
    ]
}
