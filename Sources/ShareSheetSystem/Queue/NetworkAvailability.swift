import CGIO
import GSignals
import ShareSheet

/// `.network` conditions: GNetworkMonitor's view of whether the network is available, kept
/// up to date by its `network-changed` signal while an entry waits for it.
@MainActor
public final class NetworkAvailability: QueueConditionWatch {
    private var monitor: OpaquePointer?
    private var handler: SignalHandler?
    /// Written by the signal's handler (on the main context's thread), read by `holds`.
    private let available = Locked(false)

    public init() {}

    public func watches(_ condition: QueuedShare.Condition) -> Bool {
        if case .network = condition { return true }
        return false
    }

    public func follow(_ conditions: [QueuedShare.Condition]) {
        if conditions.isEmpty {
            stop()
        } else if handler == nil {
            start()
        }
    }

    public func holds(_ condition: QueuedShare.Condition) -> Bool {
        guard case .network = condition else { return false }
        return available.withLock { $0 }
    }

    public func stop() {
        handler?.disconnect()
        handler = nil
        monitor = nil
    }

    private func start() {
        // The default monitor belongs to GIO (no reference of ours to drop).
        guard let monitor = g_network_monitor_get_default() else { return }
        self.monitor = monitor
        available.withLock { $0 = g_network_monitor_get_network_available(monitor) != 0 }
        let available = self.available
        handler = Signal.connect(UnsafeMutableRawPointer(monitor), "network-changed") { emission in
            guard let instance = emission.instance else { return }
            let now = g_network_monitor_get_network_available(OpaquePointer(instance)) != 0
            available.withLock { $0 = now }
        }
    }
}
