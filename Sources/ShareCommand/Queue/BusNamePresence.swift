import DBus
import ShareSheetSystem

/// `.busName` conditions of queued shares to share targets: watches each name on the session
/// bus (`g_bus_watch_name_on_connection`) while an entry waits for it, and says it holds while
/// the name has an owner.
@MainActor
final class BusNamePresence: QueueConditionWatch {
    private var connection: DBusConnection?
    private var watched: [String: DBusNameWatch] = [:]
    private var owned: Set<String> = []
    private let warn: (String) -> Void
    private var warned = false

    init(warn: @escaping (String) -> Void) { self.warn = warn }

    func watches(_ condition: QueuedShare.Condition) -> Bool {
        if case .busName = condition { return true }
        return false
    }

    func follow(_ conditions: [QueuedShare.Condition]) {
        let names = Set(conditions.compactMap { condition -> String? in
            if case .busName(let name) = condition, DBusName.isWellKnown(name) { return name }
            return nil
        })
        for (name, watch) in watched where !names.contains(name) {
            watch.stop()
            watched[name] = nil
            owned.remove(name)
        }
        guard names.contains(where: { watched[$0] == nil }), let connection = sessionBus() else { return }
        for name in names where watched[name] == nil {
            // GDBus calls back on the main context's thread, the main actor's.
            watched[name] = connection.watch(
                name: name,
                appeared: { [weak self] _ in MainActor.assumeIsolated { _ = self?.owned.insert(name) } },
                vanished: { [weak self] in MainActor.assumeIsolated { _ = self?.owned.remove(name) } })
        }
    }

    func holds(_ condition: QueuedShare.Condition) -> Bool {
        guard case .busName(let name) = condition else { return false }
        return owned.contains(name)
    }

    func stop() {
        for watch in watched.values { watch.stop() }
        watched = [:]
        owned = []
    }

    private func sessionBus() -> DBusConnection? {
        if let connection { return connection }
        do {
            connection = try DBusConnection.session()
        } catch {
            if !warned { warn("queue: cannot watch share targets' names: \(error.message)") }
            warned = true
        }
        return connection
    }
}
