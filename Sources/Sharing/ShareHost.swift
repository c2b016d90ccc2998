import Foundation
import ShareSheet
import ShareSheetSystem

/// The share layer: what the command, the window and the D-Bus service all call, so none of
/// them resolves items, names activities, applies presets or builds results on its own.
///
/// A host is made for one environment (the command's process, a service caller's session) and
/// owns the registry its sheets offer.
@MainActor
public final class ShareHost {
    /// Where the built-ins come from; its environment is the host's.
    public let registry: ActivityRegistry
    /// The names of the activities.
    public let names: ActivityNames

    /// A host over an existing registry (tests pass one with fake backends).
    public init(registry: ActivityRegistry) {
        self.registry = registry
        names = ActivityNames(registry: registry)
    }

    /// Makes the suggestions and the activity order for each sheet (SPEC §12): a fresh one per
    /// controller, so each sheet reads the history as it is then. Nil suggests nobody and keeps
    /// the built-in order.
    public var suggestionSourceMaker: (@MainActor () -> any SuggestionSource & ActivityHistory)?

    /// The host environment activities use.
    public var environment: HostEnvironment { registry.environment }

    /// Sends what a finished share left waiting in the outbox (its `location`) now, with the
    /// configuration as it is then: the window's Retry once the settings that kept it waiting
    /// are fixed. The share is not run again, which would queue a second copy beside it. Nil
    /// when no installed backend can (`ActivityRegistry.waitingSender`).
    public var sendWaiting: (@Sendable (_ location: String) async throws -> Void)? {
        guard let send = registry.waitingSender else { return nil }
        let environment = self.environment
        return { location in try await send(environment, location) }
    }

    /// A sheet for `items`: the controller with the presets and exclusions applied.
    /// - Parameters:
    ///   - items: the resolved items, in the order the sheet shows them.
    ///   - presets: values the activity's interface shows filled in and does not ask again.
    ///   - excluding: activity names or raw types not to offer.
    ///   - applicationActivities: the caller's own activities, offered beside the built-ins.
    ///   - rejectingUnknownSettings: end the share with a usage error, before the picked
    ///     activity shows its interface or performs, when a `settings` key is not one it knows
    ///     (`unknownSettings`), so a mistyped key never lets a share go out without it.
    ///   - suggesting: false when the activity is already chosen and no sheet is shown: the
    ///     history is not read for suggestions and an order nobody sees.
    ///   - choices: what the person chose to send: items left out, photos' size and location.
    /// - Throws: a usage error naming an unknown activity.
    public func controller(
        for items: [ResolvedItem], presets: SharePresets = SharePresets(), excluding: [String] = [],
        applicationActivities: [Activity] = [], rejectingUnknownSettings: Bool = false, suggesting: Bool = true,
        choices: ItemChoices = ItemChoices()
    ) throws -> ActivityViewController {
        let excluded = try excluding.map(names.type(named:))
        let controller = ActivityViewController(
            activityItems: items.map(\.value), applicationActivities: applicationActivities, registry: registry)
        controller.excludedActivityTypes = excluded.isEmpty ? nil : excluded
        controller.presetValues = presets.values
        controller.itemChoices = choices
        if suggesting, let source = suggestionSourceMaker?() {
            controller.suggestionSource = source
            controller.history = source
        }
        if rejectingUnknownSettings, !presets.settings.isEmpty {
            controller.presetCheck = { [weak self] activity, interface in
                guard let self else { return nil }
                let unknown = self.unknownSettingKeys(presets, for: activity, interface: interface)
                guard let first = unknown.first else { return nil }
                let said = unknown.map { self.unknownSetting($0.key, in: activity, closest: $0.closest) }
                return ShareError(
                    .usage, said.joined(separator: "; ") + "; nothing was shared", setting: ShareError.Setting(first.key))
            }
        }
        return controller
    }

    /// The activity of `type` on `sheet`, offered or not.
    public func activity(_ type: ActivityType, on sheet: ActivitySheet) -> Activity? {
        sheet.activities.first { $0.activityType == type }
            ?? sheet.unavailable.first { $0.activity.activityType == type }?.activity
    }

    /// Why `type` is not offered on `sheet`, or nil when it is.
    public func unavailableReason(_ type: ActivityType, on sheet: ActivitySheet) -> String? {
        unavailability(type, on: sheet)?.reason
    }

    /// Why `type` is not offered on `sheet` with what would make it available, or nil when it is.
    public func unavailability(_ type: ActivityType, on sheet: ActivitySheet) -> Unavailability? {
        if sheet.activities.contains(where: { $0.activityType == type }) { return nil }
        guard let entry = sheet.unavailable.first(where: { $0.activity.activityType == type }) else {
            return Unavailability("it is not part of this sheet")
        }
        return sheet.unavailableFixes[ObjectIdentifier(entry.activity)] ?? Unavailability(entry.reason)
    }

    /// The misspelled keys and groups of the configuration file, one line each, to be said
    /// before the share (they do not stop it: the file is the person's, edited over time).
    /// - Throws: `ShareError(.configuration)` naming the file and the line when GLib cannot
    ///   read it: every activity would fail on it, so the share stops before it starts.
    public func configurationWarnings() throws -> [String] {
        try environment.loadConfiguration().warnings()
    }

    /// How many bytes the `-` item may bring: `[limits] stdin=`, else 4 GiB (also when the file
    /// cannot be read: `configurationWarnings()` says why).
    /// - Throws: `ShareError(.configuration)` naming the key when its value is not a size.
    public func standardInputLimit() throws -> StandardInputLimit {
        guard let configuration = try? environment.loadConfiguration() else { return .default }
        return try StandardInputLimit(configuration: configuration)
    }

    /// How a front end names a setting given with a share, for messages: the plain default
    /// quotes the key ("'smtpserver'"); the `share` command names its option instead.
    public var settingName: @MainActor (_ key: String) -> String = { "'\($0)'" }

    /// The setting keys that `activity` neither reads from the configuration, nor declares as
    /// a preset key, nor shows as a field of `interface`, each with a suggestion when one is
    /// close: "'smtpserver': Mail has no such setting (did you mean smtp?)".
    public func unknownSettings(_ presets: SharePresets, for activity: Activity, interface: ActivityInterface?) -> [String] {
        unknownSettingKeys(presets, for: activity, interface: interface).map {
            unknownSetting($0.key, in: activity, closest: $0.closest)
        }
    }

    /// The keys `unknownSettings` names, each with the known key closest to it, if any.
    func unknownSettingKeys(
        _ presets: SharePresets, for activity: Activity, interface: ActivityInterface?
    ) -> [(key: String, closest: String?)] {
        let entry = names.entry(for: activity)
        let fields = interface?.fields.map(\.id) ?? []
        let known = ConfigurationKeys.keys(forActivity: entry.name).union(activity.presetKeys).union(fields)
            .union(["to", "subject", "app"])
        return presets.settingKeys.filter { !known.contains($0) }.map { key in
            (key: key, closest: ConfigurationKeys.suggestion(for: key, among: known))
        }
    }

    private func unknownSetting(_ key: String, in activity: Activity, closest: String?) -> String {
        "\(settingName(key)): \(names.entry(for: activity).title) has no such setting"
            + (closest.map { " (did you mean \($0)?)" } ?? "")
    }

    /// How a presentation ended, as the result every front end reports.
    /// - Parameters:
    ///   - outcome: what the controller finished with.
    ///   - activity: the activity that ran, for its names and title; nil when none was picked.
    ///   - interfaceCancelled: true when the person cancelled the activity's interface, which
    ///     counts as a dismissal.
    public func result(of outcome: ShareOutcome, activity: Activity?, interfaceCancelled: Bool = false) -> ShareResult {
        let entry = activity.map(names.entry(for:))
        var result = ShareResult(
            activityType: outcome.activityType?.rawValue, activity: entry?.name ?? outcome.activityType.map(names.name(of:)),
            completed: outcome.completed, disposition: outcome.disposition, location: outcome.location,
            returnedItems: (outcome.returnedItems ?? []).map(ShareResult.text(of:)), fallback: outcome.fallback)
        if let error = outcome.error {
            result.error = ShareResult.Failure(error, activityTitle: entry?.title)
            if result.error?.code == .cancelled {
                result.disposition = .cancelled
            } else if outcome.disposition == nil {
                result.disposition = .failed
            }
        } else if outcome.activityType == nil || interfaceCancelled {
            result.disposition = .cancelled
            result.error = ShareResult.Failure(code: .cancelled, message: "dismissed")
        } else if !outcome.completed, outcome.disposition == nil {
            // Finished with false and no reason (a receiver declined): it did not happen.
            result.disposition = .failed
        }
        return result
    }
}
