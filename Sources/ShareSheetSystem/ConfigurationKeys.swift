/// Every setting the built-in activities read from the configuration file, by group, so that a
/// misspelled key or group is reported instead of silently ignored.
///
/// The groups are those of the file (`[mail]`, `[nearby]`…). Most are named after the activity's
/// CLI name; `activities` says which activities read each group where they differ. Keys given
/// with `share --set KEY=VALUE` for one share are the same keys, plus the activity's interface
/// field ids (`to`, `subject`, `printer`, `copies`…), which this table does not list.
public enum ConfigurationKeys {
    /// The known keys of each group, keyed by the group name the configuration file uses.
    public static let known: [String: Set<String>] = [
        // Mail: MailSettings.
        "mail": ["smtp", "from", "user", "starttls", "cafile", "via", "timeout"],
        // Message: MessageSettings.
        "message": ["via", "kdeconnect-device"],
        // Print: PrintActivity's default printer.
        "print": ["printer"],
        // Save to Photos: PhotoLibrary.
        "photos": ["subfolder"],
        // Assign to Contact: ContactBook.configured.
        "contacts": ["folder", "version"],
        // AirDrop over LocalSend, and `share receive`: NearbySettings.
        "nearby": [
            "alias", "device-type", "enabled", "subnet-scan", "discovery-timeout", "port", "multicast-port",
            "parallel-uploads",
        ],
        // Every posting service: SocialComposer.
        "social": ["rate-limit-wait"],
        // One group per posting service: SocialService.apiBase, SocialComposer.limit, the posters.
        "mastodon": ["instance", "api", "max-characters", "visibility"],
        "twitter": ["api", "max-characters"],
        "facebook": ["api", "max-characters", "page"],
        "weibo": ["api", "max-characters"],
        "flickr": ["api", "max-characters", "is_public"],
        "vimeo": ["api", "max-characters", "chunk-size"],
        // Every share: the share layer's StandardInputLimit (`stdin=4G`).
        "limits": ["stdin"],
        // Share targets: TargetSettings (targets turned off, how long a D-Bus target may take).
        "targets": ["disabled", "timeout"],
    ]

    /// The CLI activity names (`share --activity NAME`) that read each group.
    public static let activities: [String: [String]] = [
        "mail": ["mail"],
        "message": ["message"],
        "print": ["print"],
        "photos": ["photos"],
        "contacts": ["contact"],
        "nearby": ["airdrop"],
        "social": ["twitter", "facebook", "weibo", "flickr", "vimeo", "mastodon"],
        "mastodon": ["mastodon"],
        "twitter": ["twitter"],
        "facebook": ["facebook"],
        "weibo": ["weibo"],
        "flickr": ["flickr"],
        "vimeo": ["vimeo"],
        // Read for every share, whatever the activity.
        "limits": [],
        "targets": [],
    ]

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
