import Foundation
import ShareSheet
import ShareSheetTesting

/// A 3×2 red PNG, the "remote photo" the test server hands out.
let samplePNG = Data(
    base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAIAAAASFvFNAAAAEElEQVR4nGP4z8AAQQxwFgBB0gX7h/C5SAAAAABJRU5ErkJggg==")!

/// A fresh registry whose built-ins keep what they receive in memory.
@MainActor
func makeInMemoryRegistry() -> (ActivityRegistry, InMemoryBackends) {
    let registry = ActivityRegistry()
    let backends = InMemoryBackends()
    backends.install(into: registry)
    return (registry, backends)
}

/// The activity types a sheet offers in its share row and its action row.
@MainActor
func offeredTypes(_ sheet: ActivitySheet) -> (share: [ActivityType], action: [ActivityType]) {
    (sheet.shareRow.compactMap(\.activityType), sheet.actionRow.compactMap(\.activityType))
}

/// Waits (in 10 ms steps, up to `limit`) until `condition` holds; returns whether it did.
///
/// For things another process does (a request reaching the test server); a safety net against a
/// hang, never a measure of speed.
@MainActor
func eventually(within limit: Duration = .seconds(20), _ condition: () -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + limit
    while clock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}
