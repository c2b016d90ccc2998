import Foundation
import Nearby
import ShareService
import ShareSheetSystem
import Sharing

extension Runner {
    /// `share --service`: the share service on the session bus until it has been idle for
    /// `SHARESHEET_SERVICE_IDLE_SECONDS` (30 by default), sending queued shares by itself
    /// meanwhile (`QueueWatcher`).
    ///
    /// Idle with shares waiting for a condition the watcher can see come true (a device, the
    /// network, a bus name), the service stays up for them, but not forever: at most
    /// `SHARESHEET_SERVICE_QUEUE_SECONDS` (an hour by default) from when they started waiting,
    /// then it exits as usual (never in the middle of a send) and they stay queued for the next
    /// service or `share outbox flush`. A share only a person can send (a receiver's PIN) keeps
    /// nothing up.
    func serveOnTheBus() async -> Termination {
        let seconds = context.environment["SHARESHEET_SERVICE_IDLE_SECONDS"].flatMap(Double.init) ?? 30
        let watcher = queueWatcher()
        let waitLimit = context.environment["SHARESHEET_SERVICE_QUEUE_SECONDS"].flatMap(Double.init) ?? 3600
        let server = ShareServer(
            host: host, idleTime: .milliseconds(Int(seconds * 1000)), front: frontDescriptor(), warn: { context.warn($0) },
            keepsRunning: {
                // Never in the middle of a send: the entry would be left interrupted.
                if watcher.isSending { return true }
                guard watcher.isWaiting, let since = watcher.waitingSince else { return false }
                return ContinuousClock.now - since < .milliseconds(Int(waitLimit * 1000))
            })
        server.settingsExtras = { .installed(for: $0) }
        watcher.start()
        let status = await server.run()
        watcher.stop()
        return Termination(status: status, message: nil)
    }

    /// The watcher of the share queue with each kind's sender and what tells when each kind
    /// of condition holds. `SHARESHEET_QUEUE_RETRY_SECONDS` (300 by default) is its safety net:
    /// every entry is tried at least that often.
    private func queueWatcher() -> QueueWatcher {
        let directories = XDGDirectories(environment: context.environment)
        let flush = QueueFlush(
            queue: ShareQueue(directories: directories),
            senders: QueueSenders.all(directories: directories, environment: context.environment))
        let retry = context.environment["SHARESHEET_QUEUE_RETRY_SECONDS"].flatMap(Double.init) ?? 300
        let context = self.context
        return QueueWatcher(
            flush: flush,
            watches: [
                NearbyPresence(directories: directories, environment: context.environment, warn: { context.warn($0) }),
                NetworkAvailability(),
                BusNamePresence(warn: { context.warn($0) }),
            ],
            retryInterval: max(1, retry), log: { context.warn($0) })
    }

    /// The socket to the front (`sharesheet-service`) that started this service, named by
    /// `SHARESHEET_SERVICE_FRONT`; the variable is removed and the socket kept from the
    /// programs activities start.
    private func frontDescriptor() -> Int32? {
        guard let value = context.environment["SHARESHEET_SERVICE_FRONT"] else { return nil }
        unsetenv("SHARESHEET_SERVICE_FRONT")
        guard let descriptor = Int32(value), descriptor > 2, fcntl(descriptor, F_SETFD, FD_CLOEXEC) == 0 else {
            context.warn("SHARESHEET_SERVICE_FRONT=\(value) is not an open descriptor; serving without the front's calls")
            return nil
        }
        return descriptor
    }
}
