import Nearby
import ShareSheet
import ShareSuggestions

/// The suggestion source the command's sheets, its service and `share suggestions` use: the
/// history, the contacts and the known devices of one environment, read once per sheet.
@MainActor
enum SuggestionSourceMaking {
    /// A fresh source for `environment`; `warn` says a file set aside or a setting that cannot be used.
    static func source(environment: HostEnvironment, warn: @escaping @MainActor (String) -> Void) -> HistorySuggestionSource {
        let source = HistorySuggestionSource(environment: environment)
        source.warn = warn
        // The known devices: pinned ones are suggested, impostors never.
        let known = KnownDevices.load(directories: environment.directories)
        for warning in known.warnings { warn(warning) }
        source.pinnedDevices = { known.pinned.map { PinnedDevice(fingerprint: $0.fingerprint, alias: $0.alias) } }
        source.isImpostor = { alias, fingerprint in known.isImpostor(alias: alias, fingerprint: fingerprint) }
        // Devices that come into range while a window shows the sheet.
        source.watchNearby = { found in NearbyWatching.start(environment: environment, found: found) }
        return source
    }
}
