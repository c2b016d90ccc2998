/// Every setting the built-in activities read from the configuration file, by group, so that a
/// misspelled key or group is reported instead of silently ignored.
///
/// The groups are those of the file (`[mail]`, `[nearby]`…). Most are named after the activity's
/// CLI name; `activities` says which activities read each group where they differ. Keys given
/// with `share --set KEY=VALUE` for one share are the same keys, plus the activity's interface
/// field ids (`to`, `subject`, `printer`, `copies`…), which this table does not list.
public enum ConfigurationKeys {
    /// Every group the program reads, in the order the configuration reference lists them,
    /// each key with its default and meaning. `known` and `activities` are made from it.
    public static let groups: [ConfigurationGroup] = [
        // Read by MailSettings.
        ConfigurationGroup(
            "mail", "how Mail sends", activities: ["mail"],
            settings: [
                .init("smtp", "none", "the SMTP server, smtp://HOST:PORT or smtps://HOST:PORT; none keeps mail in the outbox"),
                .init("from", "USER@HOSTNAME", "the sender's address, as Name <address> or address"),
                .init("user", "none", "the login name; its password comes from SHARESHEET_SMTP_PASSWORD or the keyring"),
                .init("starttls", "required", "STARTTLS on smtp://: required, optional or off"),
                .init("cafile", "none", "a CA certificate file trusted on top of the system's"),
                .init("via", "smtp", "smtp (the server, else the outbox) or mailto (the desktop's mail program)"),
                .init("timeout", "15", "seconds to wait for the server to answer the connection"),
                .init(
                    "undo-seconds", "10 in the window, 0 elsewhere",
                    "seconds a message waits in the outbox, with Undo in the window, before it is sent"),
                .init("image-size", "original", "the size photos go at: original, large (2048 px), medium (1024) or small (640)"),
            ]),
        // Read by MessageSettings.
        ConfigurationGroup(
            "message", "how Message sends", activities: ["message"],
            settings: [
                .init("via", "auto", "auto, kdeconnect, handler (the sms: handler) or outbox"),
                .init("kdeconnect-device", "none", "the KDE Connect device id to send through"),
                .init("image-size", "original", "the size photos go at: original, large (2048 px), medium (1024) or small (640)"),
            ]),
        // Read by PrintActivity.
        ConfigurationGroup(
            "print", "where Print sends jobs", activities: ["print"],
            settings: [
                .init("printer", "the default printer", "the CUPS queue to print to; with no printer, a PDF in Documents")
            ]),
        // Read by PhotoLibrary.
        ConfigurationGroup(
            "photos", "where Save to Photos saves", activities: ["photos"],
            settings: [.init("subfolder", "none", "a folder inside Pictures and Videos, relative, without . or ..")]),
        // Read by ContactBook.
        ConfigurationGroup(
            "contacts", "the vCard folder of Assign to Contact", activities: ["contact"],
            settings: [
                .init("folder", "$XDG_DATA_HOME/contacts/default", "the vdir folder of .vcf cards (absolute or ~/…)"),
                .init("version", "3.0", "the vCard version of new cards: 3.0 or 4.0"),
            ]),
        // Read by NearbySettings.
        ConfigurationGroup(
            "nearby", "AirDrop over LocalSend, and share receive", activities: ["airdrop"],
            settings: [
                .init("alias", "the host name", "the name other devices see"),
                .init("device-type", "desktop", "the device type announced: desktop, laptop, mobile…"),
                .init("enabled", "true", "false turns discovery off: only HOST[:PORT] addresses work"),
                .init("subnet-scan", "false", "true also asks every address of the local subnets"),
                .init("discovery-timeout", "10", "seconds to look for a device named by alias or fingerprint"),
                .init("discovery-period", "30", "seconds between announcements while a queued AirDrop waits for its device"),
                .init("port", "53317", "the TCP port of our own LocalSend server"),
                .init("multicast-port", "53317", "the UDP port of discovery"),
                .init("parallel-uploads", "3", "how many files go up at once (1 to 16)"),
                .init("image-size", "original", "the size photos go at: original, large (2048 px), medium (1024) or small (640)"),
            ]),
        // Read by SocialComposer.
        ConfigurationGroup(
            "social", "every posting service",
            activities: ["twitter", "facebook", "weibo", "flickr", "vimeo", "mastodon"],
            settings: [
                .init("rate-limit-wait", "120", "the most seconds to wait when a service says to slow down"),
                .init("image-size", "original", "the size photos go at: original, large (2048 px), medium (1024) or small (640)"),
            ]),
        // Each service's group: SocialService.apiBase, SocialComposer.limit and the service's poster.
        ConfigurationGroup(
            "mastodon", "Post to Mastodon", activities: ["mastodon"],
            settings: [
                .init("instance", "https://mastodon.social", "the instance posted to, and whose share page opens"),
                .init("api", "https://mastodon.social", "the API address, when it differs from instance"),
                .init("max-characters", "500", "the longest post the instance takes"),
                .init("visibility", "the account's", "public, unlisted, private or direct"),
            ]),
        ConfigurationGroup(
            "twitter", "Post to X (Twitter)", activities: ["twitter"],
            settings: [
                .init("api", "https://api.x.com", "the API address"),
                .init("max-characters", "280", "the longest post, as X counts"),
            ]),
        ConfigurationGroup(
            "facebook", "Post to Facebook", activities: ["facebook"],
            settings: [
                .init("api", "https://graph.facebook.com/v21.0", "the Graph API address"),
                .init("max-characters", "63206", "the longest post"),
                .init("page", "me", "the page or profile id posted to"),
            ]),
        ConfigurationGroup(
            "weibo", "Post to Weibo", activities: ["weibo"],
            settings: [
                .init("api", "https://api.weibo.com", "the API address"),
                .init("max-characters", "140", "the longest post, as Weibo counts"),
            ]),
        ConfigurationGroup(
            "flickr", "Post to Flickr", activities: ["flickr"],
            settings: [
                .init("api", "https://up.flickr.com", "the upload API address"),
                .init("max-characters", "no limit", "the longest title and description"),
                .init("is_public", "the account's", "1 makes uploads public, 0 private"),
            ]),
        ConfigurationGroup(
            "vimeo", "Post to Vimeo", activities: ["vimeo"],
            settings: [
                .init("api", "https://api.vimeo.com", "the API address"),
                .init("max-characters", "no limit", "the longest title and description"),
                .init("chunk-size", "33554432", "bytes per request of a resumable upload"),
            ]),
        // Read by StandardInputLimit.
        ConfigurationGroup(
            "limits", "every share", activities: [],
            settings: [.init("stdin", "4G", "the most the - item may read: a size like 500M or 4G")]),
        // Read by HistorySettings (ShareHistory).
        ConfigurationGroup(
            "history", "the share history (share history)", activities: [],
            settings: [
                .init("enabled", "true", "false records nothing: no history file is made"),
                .init("keep-days", "90", "days a finished share stays in the history; older ones are dropped at each share"),
            ]),
        // Read by SheetSettings (ShareSuggestions).
        ConfigurationGroup(
            "sheet", "how the sheet is laid out", activities: [],
            settings: [
                .init("order", "by-use", "by-use puts the activities used most for such items first in their row; fixed keeps the built-in order"),
                .init("suggestions", "true", "false shows no people, devices or applications above the activities"),
            ]),
        // Read by TargetSettings.
        ConfigurationGroup(
            "targets", "installed share targets", activities: [],
            settings: [
                .init("disabled", "none", "desktop ids of targets turned off, separated by ;"),
                .init("timeout", "60", "seconds a D-Bus target may take to answer"),
            ]),
    ]

    /// The known keys of each group, keyed by the group name the configuration file uses.
    public static let known: [String: Set<String>] = Dictionary(
        uniqueKeysWithValues: groups.map { ($0.name, Set($0.settings.map(\.key))) })

    /// The CLI activity names (`share --activity NAME`) that read each group; empty for a
    /// group read for every share, whatever the activity.
    public static let activities: [String: [String]] = Dictionary(
        uniqueKeysWithValues: groups.map { ($0.name, $0.activities) })

    /// The declarations of the groups an activity (by CLI name) reads, in reference order.
    public static func declarations(forActivity name: String) -> [ConfigurationGroup] {
        groups.filter { $0.activities.contains(name) }
    }

    /// The groups an activity (by CLI name) reads, e.g. `airdrop` → `["nearby"]`.
    public static func groups(forActivity name: String) -> [String] {
        activities.filter { $0.value.contains(name) }.map(\.key).sorted()
    }

    /// The configuration keys an activity (by CLI name) knows, over all the groups it reads.
    public static func keys(forActivity name: String) -> Set<String> {
        groups(forActivity: name).reduce(into: Set<String>()) { $0.formUnion(known[$1] ?? []) }
    }

    /// The known name closest to `name`: one that starts with it or that it starts with
    /// (`smtpserver` → `smtp`), else one at most two edits away (`subfoldr` → `subfolder`; one for short names).
    public static func suggestion(for name: String, among candidates: some Collection<String>) -> String? {
        let lowered = name.lowercased()
        if let exact = candidates.first(where: { $0.lowercased() == lowered }) { return exact }
        let prefixed = candidates.filter { candidate in
            let other = candidate.lowercased()
            return min(other.count, lowered.count) >= 3 && (lowered.hasPrefix(other) || other.hasPrefix(lowered))
        }
        if let best = prefixed.min(by: { (abs($0.count - name.count), $0) < (abs($1.count - name.count), $1) }) {
            return best
        }
        let limit = name.count <= 4 ? 1 : 2
        let scored = candidates.map { ($0, Suggestions.editDistance(lowered, $0.lowercased())) }.filter { $0.1 <= limit }
        return scored.min(by: { ($0.1, $0.0) < ($1.1, $1.0) })?.0
    }
}

/// One group of the configuration file (`[mail]`): what reads it and the keys it has.
public struct ConfigurationGroup: Sendable, Equatable {
    /// The group's name, as written between brackets.
    public var name: String
    /// What the group is for, in a few words.
    public var meaning: String
    /// The CLI names of the activities that read it; empty when every share does.
    public var activities: [String]
    /// Its keys, in the order the reference lists them.
    public var settings: [ConfigurationSetting]

    /// Declares a group.
    public init(_ name: String, _ meaning: String, activities: [String], settings: [ConfigurationSetting]) {
        self.name = name
        self.meaning = meaning
        self.activities = activities
        self.settings = settings
    }
}

/// One key of a configuration group, with what it is when unset and what it means.
public struct ConfigurationSetting: Sendable, Equatable {
    /// The key (`smtp`).
    public var key: String
    /// What the program uses when the key is unset, as a value or in words ("none").
    public var defaultValue: String
    /// One line: what it does.
    public var meaning: String

    /// Declares a key.
    public init(_ key: String, _ defaultValue: String, _ meaning: String) {
        self.key = key
        self.defaultValue = defaultValue
        self.meaning = meaning
    }
}

/// A group or key of the configuration file that no activity reads.
public struct UnknownConfigurationKey: Sendable, Equatable, CustomStringConvertible {
    /// The group, as written in the file.
    public var group: String
    /// The key; nil when the whole group is unknown.
    public var key: String?
    /// The known group or key it is probably a misspelling of.
    public var suggestion: String?

    /// Describes an unknown group (`key` nil) or key.
    public init(group: String, key: String?, suggestion: String?) {
        self.group = group
        self.key = key
        self.suggestion = suggestion
    }

    /// One line for standard error: `config: [mail] smtpserver is not a setting (did you mean smtp?)`.
    public var description: String {
        if let key {
            return "config: [\(group)] \(key) is not a setting" + (suggestion.map { " (did you mean \($0)?)" } ?? "")
        }
        return "config: [\(group)] is not a settings group" + (suggestion.map { " (did you mean [\($0)]?)" } ?? "")
    }
}

extension Configuration {
    /// The groups and keys of the file that `ConfigurationKeys.known` does not list, in file
    /// order of groups (sorted) and keys (sorted), each with a suggestion when one is close.
    public func unknownKeys(known: [String: Set<String>] = ConfigurationKeys.known) -> [UnknownConfigurationKey] {
        var unknown: [UnknownConfigurationKey] = []
        for group in groups {
            guard let keys = known[group] else {
                unknown.append(
                    UnknownConfigurationKey(
                        group: group, key: nil, suggestion: ConfigurationKeys.suggestion(for: group, among: known.keys)))
                continue
            }
            for key in self.keys(in: group) where !keys.contains(key) {
                unknown.append(
                    UnknownConfigurationKey(group: group, key: key, suggestion: ConfigurationKeys.suggestion(for: key, among: keys)))
            }
        }
        return unknown
    }

    /// One line per unknown group or key, for standard error (see `unknownKeys()`).
    public func warnings() -> [String] { unknownKeys().map(\.description) }
}
