import Foundation

/// What tells a queue watcher whether a queued share's condition holds now (SPEC §14: the
/// device appears in discovery, the network comes back, the share target's name gets an owner).
///
/// An implementation watches one family of conditions: it starts watching when `follow` first
/// names one, stops when none is named any more, and answers `holds` cheaply, since the watcher
/// asks about every waiting entry on each of its rounds. Everything runs on the main actor,
/// which in the service is the thread of GLib's main context: monitors and bus watches
/// created here deliver their signals there.
@MainActor
public protocol QueueConditionWatch: AnyObject {
    /// True for the conditions this one can tell about.
    func watches(_ condition: QueuedShare.Condition) -> Bool

    /// The conditions of the entries waiting now (only those `watches` accepts): watch these,
    /// and stop watching the rest.
    func follow(_ conditions: [QueuedShare.Condition])

    /// True when `condition` holds now, so a send is worth trying.
    func holds(_ condition: QueuedShare.Condition) -> Bool

    /// Stops watching everything.
    func stop()
}
