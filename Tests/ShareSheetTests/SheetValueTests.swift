import Foundation
import ShareSheet
import ShareSheetTesting
import Testing

/// A built-in whose check needs a value that costs: it asks the sheet for it, and counts how
/// often it had to be made.
final class SharingCheckBuiltIn: BuiltInActivity {
    /// What the built-ins of one sheet share.
    final class Shared {
        let number: Int
        init(number: Int) { self.number = number }
    }

    let made: Locked<Int>
    private(set) var seen: [Int] = []

    init(descriptor: BuiltInActivityDescriptor, made: Locked<Int>) {
        self.made = made
        super.init(descriptor: descriptor)
    }

    override func canPerform(withActivityItems activityItems: [Any]) -> Bool {
        let shared = sheetValue(Shared.self, forItems: activityItems) {
            Shared(number: made.withLock { $0 += 1; return $0 })
        }
        seen.append(shared.number)
        return super.canPerform(withActivityItems: activityItems)
    }
}

@MainActor
@Suite("Values a sheet's built-ins share while it is built")
struct SheetValueTests {
    private func registry(made: Locked<Int>) throws -> (ActivityRegistry, () -> [SharingCheckBuiltIn]) {
        let registry = ActivityRegistry()
        var activities: [SharingCheckBuiltIn] = []
        for type in [ActivityType.addToReadingList, .copyToPasteboard, .print] {
            let descriptor = try #require(registry.descriptor(for: type))
            registry.install(type) {
                let activity = SharingCheckBuiltIn(descriptor: descriptor, made: made)
                activities.append(activity)
                return activity
            }
        }
        return (registry, { activities })
    }

    @Test("made once per sheet for all its built-ins; another sheet makes its own")
    func oncePerSheet() throws {
        let made = Locked(0)
        let (registry, activities) = try registry(made: made)
        let items: [Any] = ["text", Samples.webURL]
        _ = ActivityViewController(activityItems: items, applicationActivities: nil, registry: registry).sheet
        #expect(made.withLock { $0 } == 1)
        #expect(activities().map(\.seen) == [[1], [1], [1]])
        _ = ActivityViewController(activityItems: items, applicationActivities: nil, registry: registry).sheet
        #expect(made.withLock { $0 } == 2)
        #expect(activities().suffix(3).map(\.seen) == [[2], [2], [2]])
    }

    @Test("asked outside a sheet's questions, the value is made every time")
    func madeEachTimeOutsideASheet() throws {
        let made = Locked(0)
        let (registry, _) = try registry(made: made)
        let activity = try #require(registry.makeActivities().first { $0 is SharingCheckBuiltIn } as? SharingCheckBuiltIn)
        _ = activity.canPerform(withActivityItems: [Samples.webURL])
        _ = activity.canPerform(withActivityItems: [Samples.webURL])
        #expect(activity.seen == [1, 2])
    }
}
