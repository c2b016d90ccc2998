import Foundation
import Nearby
import ShareSheet
import ShareSheetSystem
import ShareTargets
import Social

/// The senders of the share queue's kinds, each from its backend: what `share outbox flush`
/// and the service's queue watcher send queued shares with.
enum QueueSenders {
    /// One sender per kind the command knows, reading settings from `directories` and
    /// `environment`.
    static func all(directories: XDGDirectories, environment: [String: String]) -> [any QueueSender] {
        [
            AirDropQueueSender(directories: directories, environment: environment),
            PostQueueSender(directories: directories, environment: environment),
            TargetQueueSender(environment: HostEnvironment(variables: environment)),
        ]
    }
}
