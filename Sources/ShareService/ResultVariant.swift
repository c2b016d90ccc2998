import GVariants
import Sharing

/// A share's result as the `Response` signal carries it: 0 done, 1 dismissed or cancelled,
/// 2 failed, and SPEC §6's fields under the names the interface file gives, each present only
/// when it has a value — the same fields and words as `share --json`.
enum ResultVariant {
    static func make(_ result: ShareResult) -> (response: UInt32, results: OpaquePointer) {
        var entries: [(String, OpaquePointer)] = []
        if let activity = result.activity { entries.append(("activity", Variant.string(activity))) }
        if let type = result.activityType { entries.append(("activity-type", Variant.string(type))) }
        entries.append(("completed", Variant.bool(result.completed)))
        if let disposition = result.disposition { entries.append(("disposition", Variant.string(disposition.rawValue))) }
        if let location = result.location { entries.append(("location", Variant.string(location))) }
        if !result.returnedItems.isEmpty { entries.append(("returned-items", Variant.strings(result.returnedItems))) }
        if let fallback = result.fallback {
            entries.append(("fallback-message", Variant.string(fallback.message)))
            entries.append(("fallback-hint", Variant.string(fallback.hint)))
        }
        if let error = result.error {
            entries.append(("error-code", Variant.string(error.code.rawValue)))
            entries.append(("error-message", Variant.string(error.message)))
            if let hint = error.hint { entries.append(("error-hint", Variant.string(hint))) }
        }
        return (response(of: result), Variant.dictionary(entries))
    }

    static func response(of result: ShareResult) -> UInt32 {
        if result.completed { return 0 }
        return result.disposition == .cancelled || result.error?.code == .cancelled ? 1 : 2
    }
}
