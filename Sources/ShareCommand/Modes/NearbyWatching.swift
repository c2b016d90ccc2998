import Foundation
import Nearby
import ShareSheet
import ShareSheetSystem
import ShareSuggestions

/// The look for LocalSend devices nearby behind a window's suggestions
/// (`HistorySuggestionSource.watchNearby`): discovery as AirDrop runs it, set up off the main
/// actor (a first run makes this device's certificate), until the sheet is left.
enum NearbyWatching {
    /// Starts looking with `environment`'s `[nearby]` settings; `found` runs on the main actor
    /// with every device seen so far. Nothing is looked for when discovery is switched off.
    @MainActor
    static func start(environment: HostEnvironment, found: @escaping @MainActor ([PinnedDevice]) -> Void) -> @MainActor () -> Void {
        let watch = Watch()
        let variables = environment.variables
        let directories = environment.directories
        Task.detached {
            guard let configuration = try? Configuration.load(from: directories) else { return }
            let settings = NearbySettings(configuration: configuration, environment: variables)
            guard settings.discoveryEnabled, let identity = try? NearbyIdentity.loadOrCreate(in: NearbyIdentity.folder(directories))
            else { return }
            let seen = Locked<[String: PinnedDevice]>([:])
            let discovery = NearbyDiscovery(settings: settings, identity: identity) { device in
                let devices = seen.withLock { seen -> [PinnedDevice] in
                    seen[device.fingerprint.lowercased()] = PinnedDevice(fingerprint: device.fingerprint, alias: device.info.alias)
                    return Array(seen.values)
                }
                Task { @MainActor in found(devices) }
            }
            // Not started once the sheet was left meanwhile; a sheet left later stops it.
            guard watch.hold(discovery) else { return }
            try? discovery.start()
        }
        return { watch.stop() }
    }

    /// The discovery, once made, and whether the sheet was left.
    private final class Watch: Sendable {
        private let state = Locked<(discovery: NearbyDiscovery?, stopped: Bool)>((nil, false))

        /// Keeps `discovery` to stop later; false when the sheet was already left.
        func hold(_ discovery: NearbyDiscovery) -> Bool {
            state.withLock { state in
                guard !state.stopped else { return false }
                state.discovery = discovery
                return true
            }
        }

        func stop() {
            let discovery = state.withLock { state -> NearbyDiscovery? in
                state.stopped = true
                return state.discovery
            }
            discovery?.stop()
        }
    }
}
