import Foundation
import ShareSheet
import ShareSheetSystem

/// `.device` conditions of queued AirDrops: keeps a `NearbyDiscovery` running while one waits,
/// announcing every `[nearby] discovery-period` so receivers answer, and says a device is there
/// when it was heard from within about two periods (a device that leaves stops answering).
///
/// A condition names the device by fingerprint when one is known, else by alias, or by host
/// for a typed address (a device answering from that address). With discovery switched off
/// nothing is ever there: the watcher's periodic retry still tries addresses.
@MainActor
public final class NearbyPresence: QueueConditionWatch {
    private let directories: XDGDirectories
    private let environment: [String: String]
    private var discovery: NearbyDiscovery?
    private var period: Double = 30
    private var warned = false
    /// Discovery is switched off: nothing is looked for.
    private var switchedOff = false
    private let warn: (String) -> Void

    /// Presence with the settings and identity in `directories`, and `SHARESHEET_NEARBY` from
    /// `environment`; `warn` says once why discovery cannot run.
    public init(directories: XDGDirectories, environment: [String: String], warn: @escaping (String) -> Void = { _ in }) {
        self.directories = directories
        self.environment = environment
        self.warn = warn
    }

    public func watches(_ condition: QueuedShare.Condition) -> Bool {
        if case .device = condition { return true }
        return false
    }

    public func follow(_ conditions: [QueuedShare.Condition]) {
        if conditions.isEmpty {
            stop()
        } else if discovery == nil, !switchedOff {
            start()
        }
    }

    public func holds(_ condition: QueuedShare.Condition) -> Bool {
        guard case .device(let fingerprint, let alias) = condition, let discovery else { return false }
        let since = Date().addingTimeInterval(-(2 * period + 3))
        if let fingerprint, !fingerprint.isEmpty { return discovery.device(named: fingerprint, heardSince: since) != nil }
        return discovery.device(named: alias, heardSince: since) != nil
    }

    public func stop() {
        discovery?.stop()
        discovery = nil
    }

    private func start() {
        do {
            let configuration = try Configuration.load(from: directories)
            let settings = NearbySettings(configuration: configuration, environment: environment)
            guard settings.discoveryEnabled else {
                switchedOff = true
                return
            }
            let identity = try NearbyIdentity.loadOrCreate(in: NearbyIdentity.folder(directories))
            let discovery = NearbyDiscovery(settings: settings, identity: identity) { _ in }
            try discovery.start()
            self.discovery = discovery
            period = settings.discoveryPeriod
        } catch {
            // Tried again at the next round; said once.
            if !warned { warn("queue: cannot look for devices nearby: \((error as? ShareError)?.message ?? "\(error)")") }
            warned = true
        }
    }
}
