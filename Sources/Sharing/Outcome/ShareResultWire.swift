import ShareServiceProtocol
import ShareSheet

// A share's result on the wire (SPEC §6, §8): the library's `ShareResult` as the `Response`
// signal carries it, and back, so `share --json`, the service and its clients say the same.

extension WireResponse {
    /// The `Response` for `result`: 0 done, 1 dismissed or cancelled, 2 failed, and the fields
    /// that have a value.
    public init(_ result: ShareResult) {
        var results = WireResults(
            activity: result.activity, activityType: result.activityType, completed: result.completed,
            disposition: result.disposition?.rawValue, location: result.location, returnedItems: result.returnedItems,
            fallbackMessage: result.fallback?.message, fallbackHint: result.fallback?.plainAdvice
        ).withFallbackFacts(
            setting: result.fallback?.setting?.description, fix: result.fallback?.fix?.rawValue, path: result.fallback?.path)
        if let error = result.error {
            results.errorCode = error.code.rawValue
            results.errorMessage = error.message
            // The facts as they are, and the advice in plain words (SPEC §11): a client words
            // the facts its own way.
            results.errorField = error.field
            results.errorSetting = error.setting?.description
            results.errorFix = error.fix?.rawValue
            results.errorPath = error.path
            results.errorHint = error.plainAdvice
        }
        if let kept = result.kept {
            results.kept = kept.what
            results.keptLocation = kept.location
            results.keptResume = kept.resume
        }
        let response: UInt32
        if result.completed {
            response = Self.done
        } else if result.disposition == .cancelled || result.error?.code == .cancelled {
            response = Self.dismissed
        } else {
            response = Self.failed
        }
        self.init(response: response, results: results)
    }
}

extension ShareResult {
    /// The result a `Response` carries; a missing field is made from `response` (1 is a
    /// dismissal, 2 a failure the service gave no reason for).
    public init(_ wire: WireResponse) {
        let response = wire.response
        let results = wire.results
        var disposition = results.disposition.flatMap(ShareDisposition.init(rawValue:))
        if disposition == nil, response == WireResponse.dismissed { disposition = .cancelled }
        if disposition == nil, response == WireResponse.failed { disposition = .failed }
        let fallbackSetting = results.fallbackSetting.map(ShareError.Setting.init(wire:))
        let fallbackFix = results.fallbackFix.flatMap(ShareError.Fix.init(rawValue:))
        let fallback = results.fallbackMessage.map {
            ActivityFallback(
                message: $0,
                hint: PlainAdvice.ownHint(
                    of: results.fallbackHint, fix: fallbackFix, setting: fallbackSetting, path: results.fallbackPath),
                setting: fallbackSetting, fix: fallbackFix, path: results.fallbackPath)
        }
        var failure: Failure?
        if results.errorCode != nil || results.errorMessage != nil || response != WireResponse.done {
            let kind =
                results.errorCode.flatMap(ShareError.Kind.init(rawValue:))
                ?? (response == WireResponse.dismissed ? .cancelled : .ioError)
            failure = Failure(
                code: kind,
                message: results.errorMessage ?? (kind == .cancelled ? "dismissed" : "the share service gave no reason"),
                hint: PlainAdvice.ownHint(
                    of: results.errorHint, fix: results.errorFix.flatMap(ShareError.Fix.init(rawValue:)),
                    setting: results.errorSetting.map(ShareError.Setting.init(wire:)), path: results.errorPath),
                field: results.errorField, setting: results.errorSetting.map(ShareError.Setting.init(wire:)),
                fix: results.errorFix.flatMap(ShareError.Fix.init(rawValue:)), path: results.errorPath)
        }
        self.init(
            activityType: results.activityType, activity: results.activity,
            completed: results.completed ?? (response == WireResponse.done), disposition: disposition,
            location: results.location, returnedItems: results.returnedItems, fallback: fallback, error: failure,
            kept: results.kept.map { Kept(what: $0, location: results.keptLocation ?? "", resume: results.keptResume) })
    }
}
