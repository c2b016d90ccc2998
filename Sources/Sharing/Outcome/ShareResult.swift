import Foundation
import ShareSheet

/// How a share ended, as one value every front end reports the same way: `share --json`
/// prints it, the D-Bus service sends its fields in `Response`, the library returns it.
public struct ShareResult: Codable, Sendable, Equatable {
    /// The chosen activity's type (Apple's raw value for the built-ins); nil when dismissed.
    public var activityType: String?
    /// The chosen activity's command name; nil when dismissed.
    public var activity: String?
    /// True when the activity ran to completion.
    public var completed: Bool
    /// Where the items went; nil when the activity did not say (an application's own).
    public var disposition: ShareDisposition?
    /// The path, URL or job id where the items went, when there is one.
    public var location: String?
    /// What the activity returned, as text: file URLs as paths, other URLs as strings.
    public var returnedItems: [String]
    /// What the activity did instead of the real thing, and the key or command that changes it.
    public var fallback: ActivityFallback?
    /// Why the share failed; nil when it did not.
    public var error: Failure?
    /// What a cancelled share kept (files that had reached a device, a message in the outbox);
    /// nil when nothing was.
    public var kept: Kept?

    /// The result once what the share left waiting at `location` was sent after all (the
    /// window's Retry, `ShareHost.sendWaiting`): sent, with nothing waiting and no fallback.
    /// Unchanged when the share did not leave that in the outbox.
    public func sentAfterWaiting(at location: String?) -> ShareResult {
        guard let location, disposition == .queued, self.location == location else { return self }
        var result = self
        result.disposition = .sent
        result.location = nil
        result.fallback = nil
        result.returnedItems = []
        return result
    }

    /// Work a cancel kept: what, where, and how it is finished when it is not.
    public struct Kept: Codable, Sendable, Equatable {
        /// What was kept, in words: "1 of 2 files", "the message".
        public var what: String
        /// Where it is: a path, or the device that has it.
        public var location: String
        /// How it is finished (`outbox`); nil when it is finished already.
        public var resume: String?

        /// Describes kept work.
        public init(what: String, location: String, resume: String? = nil) {
            self.what = what
            self.location = location
            self.resume = resume
        }

        /// What an activity said it kept.
        public init(_ kept: KeptWork) {
            self.init(what: kept.what, location: kept.location, resume: kept.resume?.rawValue)
        }

        // Every key present, null when empty, as in the rest of the result.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(what, forKey: .what)
            try container.encode(location, forKey: .location)
            try container.encode(resume, forKey: .resume)
        }
    }

    /// A failure: what kind, in words, and what fixes it as facts a front end words.
    public struct Failure: Codable, Sendable, Equatable {
        /// What kind of failure (`no-input`, `unavailable`, `temporary-failure`…).
        public var code: ShareError.Kind
        /// One line naming the item or service and the reason.
        public var message: String
        /// What would help: the backend's plain words, or a front end's wording of the facts
        /// (the command's `--json` names its options and keys here).
        public var hint: String?
        /// The interface field only a person can give (`pin`).
        public var field: String?
        /// The setting that fixes it or that is wrong (`mail.smtp`).
        public var setting: ShareError.Setting?
        /// What kind of fix a person can make.
        public var fix: ShareError.Fix?
        /// The file or folder that matters.
        public var path: String?

        /// Describes a failure.
        public init(
            code: ShareError.Kind, message: String, hint: String? = nil, field: String? = nil,
            setting: ShareError.Setting? = nil, fix: ShareError.Fix? = nil, path: String? = nil
        ) {
            self.code = code
            self.message = message
            self.hint = hint
            self.field = field
            self.setting = setting
            self.fix = fix
            self.path = path
        }

        // Every key always present, null when there is none, like every key of the result.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(code, forKey: .code)
            try container.encode(message, forKey: .message)
            try container.encode(hint, forKey: .hint)
            try container.encode(field, forKey: .field)
            try container.encode(setting, forKey: .setting)
            try container.encode(fix, forKey: .fix)
            try container.encode(path, forKey: .path)
        }

        private enum CodingKeys: String, CodingKey { case code, message, hint, field, setting, fix, path }

        /// The failure an error stands for: a `ShareError` as it says, anything else as an I/O
        /// failure with its description, named after `activityTitle` when given.
        public init(_ error: any Error, activityTitle: String? = nil) {
            if let shareError = error as? ShareError {
                self.init(
                    code: shareError.kind, message: shareError.message, hint: shareError.hint, field: shareError.field,
                    setting: shareError.setting, fix: shareError.fix, path: shareError.path)
            } else {
                let description = (error as NSError).localizedDescription
                self.init(code: .ioError, message: activityTitle.map { "\($0): \(description)" } ?? description)
            }
        }
    }

    /// Describes a result.
    public init(
        activityType: String? = nil, activity: String? = nil, completed: Bool, disposition: ShareDisposition? = nil,
        location: String? = nil, returnedItems: [String] = [], fallback: ActivityFallback? = nil, error: Failure? = nil,
        kept: Kept? = nil
    ) {
        self.activityType = activityType
        self.activity = activity
        self.completed = completed
        self.disposition = disposition
        self.location = location
        self.returnedItems = returnedItems
        self.fallback = fallback
        self.error = error
        self.kept = kept
    }

    /// The result of a share that failed before any activity ran (a missing file, a bad name).
    public init(failure error: any Error) {
        let failure = Failure(error)
        self.init(completed: false, disposition: failure.code == .cancelled ? .cancelled : .failed, error: failure)
    }

    /// The result of a dismissed sheet.
    public static let dismissed = ShareResult(
        completed: false, disposition: .cancelled, error: Failure(code: .cancelled, message: "dismissed"))

    /// The result as one line of JSON in the one style (`JSONStyle`: keys sorted), every key
    /// present, null when empty: the shape every front end prints.
    public var json: String { (try? JSONStyle.text(self)) ?? "{}" }

    // Written by hand so that every key of SPEC §6 is always there, null when empty: scripts
    // read one shape whatever happened (`JSONEncoder` leaves nil members out).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(activityType, forKey: .activityType)
        try container.encode(activity, forKey: .activity)
        try container.encode(completed, forKey: .completed)
        try container.encode(disposition, forKey: .disposition)
        try container.encode(location, forKey: .location)
        try container.encode(returnedItems, forKey: .returnedItems)
        try container.encode(fallback, forKey: .fallback)
        try container.encode(error, forKey: .error)
        try container.encode(kept, forKey: .kept)
    }

    /// A returned item as text: file URLs as paths, other URLs as strings.
    public static func text(of item: Any) -> String {
        switch item {
        case let url as URL: return url.isFileURL ? url.path : url.absoluteString
        case let text as String: return text
        case let dataItem as DataItem: return dataItem.filename
        default: return String(describing: item)
        }
    }
}
