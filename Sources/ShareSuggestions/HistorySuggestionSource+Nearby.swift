import ShareSheet

/// Devices that come into range while the sheet is shown (SPEC §12: "LocalSend devices visible
/// now"). A sheet cannot wait for them, so the window follows them: each one found joins the
/// suggestions after the people and devices the history ranks and the pinned ones, before the
/// contacts never shared with, which it pushes out past 8.
extension HistorySuggestionSource {
    public func followSuggestions(
        for kinds: [ItemKind], offered: [Activity], changed: @escaping @MainActor ([ActivitySuggestion]) -> Void
    ) {
        stopFollowingSuggestions()
        guard loadedSettings().sheet.suggests, let watchNearby, offered.contains(where: { $0.activityType == .airDrop }) else {
            return
        }
        let shown = lastShown
        let isImpostor = self.isImpostor
        var last = shown.map(\.suggestion)
        followGeneration += 1
        let generation = followGeneration
        stopWatchingNearby = watchNearby { [weak self] devices in
            guard let self, self.followGeneration == generation else { return }
            let merged = Self.merging(
                nearby: devices, into: shown, isImpostor: isImpostor, limit: ActivityViewController.suggestionLimit
            ).map(\.suggestion)
            guard merged != last else { return }
            last = merged
            changed(merged)
        }
    }

    public func stopFollowingSuggestions() {
        followGeneration += 1
        let stop = stopWatchingNearby
        stopWatchingNearby = nil
        stop?()
    }

    /// `shown` with the devices `nearby` joined: after the history's and the pinned candidates,
    /// before the contacts; never an impostor, nor a device already there (by fingerprint, or
    /// by name for one the history knows only by name). At most `limit`.
    static func merging(
        nearby: [PinnedDevice], into shown: [SuggestionCandidate], isImpostor: (_ alias: String, _ fingerprint: String) -> Bool,
        limit: Int
    ) -> [SuggestionCandidate] {
        var ids = Set(shown.map(\.suggestion.id))
        let names = Set(shown.filter { $0.suggestion.activityType == .airDrop }.map { $0.suggestion.title.lowercased() })
        var devices: [SuggestionCandidate] = []
        for device in nearby.sorted(by: { $0.alias.localizedCaseInsensitiveCompare($1.alias) == .orderedAscending }) {
            guard !isImpostor(device.alias, device.fingerprint), !names.contains(device.alias.lowercased()) else { continue }
            let suggestion = SuggestionMaking.deviceSuggestion(fingerprint: device.fingerprint, alias: device.alias)
            guard ids.insert(suggestion.id).inserted else { continue }
            devices.append(
                SuggestionCandidate(suggestion: suggestion, origin: .nearbyDevice, uses: 0, lastUsed: nil, score: 0, isOffered: true))
        }
        let first = shown.filter { $0.origin != .contact }
        let contacts = shown.filter { $0.origin == .contact }
        return Array((first + devices + contacts).prefix(limit))
    }
}
