import GVariants

/// The results of a share (SPEC §6's outcome, as `Response` and a target's `Share` carry them),
/// each field present only when it has a value — the fields and words of `share --json`.
public struct WireResults: Equatable, Sendable {
    /// `activity`: the CLI name, or `app.ID`.
    public var activity: String?
    /// `activity-type`
    public var activityType: String?
    /// `completed` (b)
    public var completed: Bool?
    /// `disposition`: sent, queued, saved, handed-off, opened, copied, posted, printed, cancelled, failed.
    public var disposition: String?
    /// `location`: the path, URL or job id where the work went.
    public var location: String?
    /// `returned-items` (as)
    public var returnedItems: [String]
    /// `fallback-message`, `fallback-hint`: a fallback, said in words.
    public var fallbackMessage: String?
    /// `fallback-hint`: what changes the fallback, in plain words.
    public var fallbackHint: String?
    /// `fallback-setting`: the setting that changes it (`mail.smtp`).
    public var fallbackSetting: String?
    /// `fallback-fix`: the kind of fix that changes it (a `ShareError.Fix` raw value).
    public var fallbackFix: String?
    /// `fallback-path`: the file that matters.
    public var fallbackPath: String?
    /// `error-code`: a `ShareError.Kind` raw value.
    public var errorCode: String?
    /// `error-message`
    public var errorMessage: String?
    /// `error-field`: the form field a person must fill in.
    public var errorField: String?
    /// `error-setting`: the configuration key that changes the outcome.
    public var errorSetting: String?
    /// `error-hint`: what fixes it, in plain words.
    public var errorHint: String?
    /// `error-fix`: what kind of fix a person can make (a `ShareError.Fix` raw value).
    public var errorFix: String?
    /// `error-path`: the file or folder that matters.
    public var errorPath: String?
    /// `kept`: what a cancel kept, in words ("1 of 2 files", "the message").
    public var kept: String?
    /// `kept-location`: where the kept work is (a path, a device).
    public var keptLocation: String?
    /// `kept-resume`: how the kept work is finished (`outbox`), when it is not finished already.
    public var keptResume: String?

    /// Results with the fields given; the rest absent.
    public init(
        activity: String? = nil, activityType: String? = nil, completed: Bool? = nil, disposition: String? = nil,
        location: String? = nil, returnedItems: [String] = [], fallbackMessage: String? = nil, fallbackHint: String? = nil,
        errorCode: String? = nil, errorMessage: String? = nil, errorField: String? = nil, errorSetting: String? = nil,
        errorHint: String? = nil, errorFix: String? = nil, errorPath: String? = nil, kept: String? = nil,
        keptLocation: String? = nil, keptResume: String? = nil
    ) {
        self.activity = activity
        self.activityType = activityType
        self.completed = completed
        self.disposition = disposition
        self.location = location
        self.returnedItems = returnedItems
        self.fallbackMessage = fallbackMessage
        self.fallbackHint = fallbackHint
        self.errorCode = errorCode
        self.errorMessage = errorMessage
        self.errorField = errorField
        self.errorSetting = errorSetting
        self.errorHint = errorHint
        self.errorFix = errorFix
        self.errorPath = errorPath
        self.kept = kept
        self.keptLocation = keptLocation
        self.keptResume = keptResume
    }

    /// These results with the facts behind the fallback's hint.
    public func withFallbackFacts(setting: String?, fix: String?, path: String?) -> WireResults {
        var results = self
        results.fallbackSetting = setting
        results.fallbackFix = fix
        results.fallbackPath = path
        return results
    }

    /// The results' `a{sv}`.
    public func encode() -> GVariant {
        var entries = WireEntries()
        entries.add("activity", activity)
        entries.add("activity-type", activityType)
        entries.add("completed", completed)
        entries.add("disposition", disposition)
        entries.add("location", location)
        if !returnedItems.isEmpty { entries.add("returned-items", .strings(returnedItems)) }
        entries.add("fallback-message", fallbackMessage)
        entries.add("fallback-hint", fallbackHint)
        entries.add("fallback-setting", fallbackSetting)
        entries.add("fallback-fix", fallbackFix)
        entries.add("fallback-path", fallbackPath)
        entries.add("error-code", errorCode)
        entries.add("error-message", errorMessage)
        entries.add("error-field", errorField)
        entries.add("error-setting", errorSetting)
        entries.add("error-hint", errorHint)
        entries.add("error-fix", errorFix)
        entries.add("error-path", errorPath)
        entries.add("kept", kept)
        entries.add("kept-location", keptLocation)
        entries.add("kept-resume", keptResume)
        return entries.variant
    }

    /// Reads results; keys it does not know are ignored.
    /// - Throws: `WireError` naming a known key of the wrong type.
    public init(decoding value: GVariant) throws {
        let results = try WireDictionary(value, place: "results: ", name: "results")
        self.init(
            activity: try results.string("activity"), activityType: try results.string("activity-type"),
            completed: try results.bool("completed"), disposition: try results.string("disposition"),
            location: try results.string("location"), returnedItems: try results.strings("returned-items") ?? [],
            fallbackMessage: try results.string("fallback-message"), fallbackHint: try results.string("fallback-hint"),
            errorCode: try results.string("error-code"), errorMessage: try results.string("error-message"),
            errorField: try results.string("error-field"), errorSetting: try results.string("error-setting"),
            errorHint: try results.string("error-hint"), errorFix: try results.string("error-fix"),
            errorPath: try results.string("error-path"), kept: try results.string("kept"),
            keptLocation: try results.string("kept-location"), keptResume: try results.string("kept-resume"))
        fallbackSetting = try results.string("fallback-setting")
        fallbackFix = try results.string("fallback-fix")
        fallbackPath = try results.string("fallback-path")
    }
}

/// The `Response` signal of a request: `response` 0 done, 1 dismissed or cancelled, 2 failed,
/// and the results.
public struct WireResponse: Equatable, Sendable {
    /// `response`: `done`, `dismissed` or `failed`.
    public var response: UInt32
    /// `results`
    public var results: WireResults

    /// The share ended as it should.
    public static let done: UInt32 = 0
    /// The person dismissed the sheet, or the caller closed the request.
    public static let dismissed: UInt32 = 1
    /// The share failed; the results say why.
    public static let failed: UInt32 = 2

    /// A Response with its results.
    public init(response: UInt32, results: WireResults) {
        self.response = response
        self.results = results
    }

    /// The signal's arguments, `(ua{sv})`.
    public func encode() -> GVariant { .tuple([.uint32(response), results.encode()]) }

    /// Reads the signal's arguments.
    /// - Throws: `WireError` when they are not `(ua{sv})` or a result is of the wrong type.
    public init(decoding value: GVariant) throws {
        guard value.typeString == "(ua{sv})" else {
            throw WireError("Response must be of type (ua{sv}), not \(value.typeString)")
        }
        let fields = value.children
        self.init(response: fields[0].uint32 ?? Self.failed, results: try WireResults(decoding: fields[1]))
    }
}
