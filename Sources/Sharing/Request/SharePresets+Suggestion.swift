import ShareSheet

extension SharePresets {
    /// These presets with what `suggestion` sets ahead on top: its `to` replaces the given
    /// recipients, its other keys (AirDrop's `fingerprint`, Open In's `app`) replace the same
    /// keys. A front end that picks a suggestion without a sheet (`share --suggestion`) runs
    /// its activity with these, so a share run again after a question keeps them.
    public func applying(_ suggestion: ActivitySuggestion) -> SharePresets {
        var presets = self
        for (key, value) in suggestion.presets.sorted(by: { $0.key < $1.key }) {
            if key == "to" {
                presets.to = [value]
            } else {
                presets.settings.removeAll { $0.key == key }
                presets.settings.append((key: key, value: value))
            }
        }
        return presets
    }
}
