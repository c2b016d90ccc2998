/// The order of queued messages, oldest first, by the time in their Maildir names
/// (`SECONDS.MMICROSECONDS…`, `sms-` first for text messages). The microseconds are written
/// without leading zeros, so the names themselves do not sort: `M65406` is earlier than
/// `M373860` within one second.
enum MaildirOrder {
    /// True when the message named `first` was queued before the one named `second`; names
    /// without a time sort after those with one, by name.
    static func precedes(_ first: String, _ second: String) -> Bool {
        switch (time(of: first), time(of: second)) {
        case let (a?, b?) where a != b: return a.seconds != b.seconds ? a.seconds < b.seconds : a.microseconds < b.microseconds
        case (_?, nil): return true
        case (nil, _?): return false
        default: return first < second
        }
    }

    private static func time(of name: String) -> (seconds: Int, microseconds: Int)? {
        let bare = name.hasPrefix("sms-") ? name.dropFirst(4) : name[...]
        let parts = bare.split(separator: ".", maxSplits: 2)
        guard parts.count >= 2, let seconds = Int(parts[0]), parts[1].hasPrefix("M") else { return nil }
        let digits = parts[1].dropFirst().prefix { $0.isNumber }
        guard let microseconds = Int(digits) else { return nil }
        return (seconds, microseconds)
    }
}
