import Foundation
import ShareSheet

/// Backends for every built-in that keep what they receive in memory instead of sending it:
/// for tests of code that shares, ours and our users'.
@MainActor
public final class InMemoryBackends {
    /// What each built-in received, per activity type, one list per performance.
    public private(set) var received: [ActivityType: [[Any]]] = [:]
    /// The subjects built-ins were given, per activity type.
    public private(set) var subjects: [ActivityType: String] = [:]
    /// How each built-in ends.
    public var ending: FakeActivity.Ending = .finish(true)

    /// Makes empty in-memory backends.
    public init() {}

    /// Installs an in-memory backend for every built-in in `registry` (retired ones stay retired).
    public func install(into registry: ActivityRegistry) {
        for descriptor in registry.descriptors {
            registry.install(descriptor.type) { [self] in
                InMemoryBuiltInActivity(descriptor: descriptor, backends: self)
            }
        }
    }

    fileprivate func record(_ items: [Any], subject: String?, for type: ActivityType) {
        received[type, default: []].append(items)
        if let subject { subjects[type] = subject }
    }
}

/// A built-in activity whose backend is an `InMemoryBackends`.
final class InMemoryBuiltInActivity: BuiltInActivity {
    private let backends: InMemoryBackends
    private var items: [Any] = []

    init(descriptor: BuiltInActivityDescriptor, backends: InMemoryBackends) {
        self.backends = backends
        super.init(descriptor: descriptor)
    }

    override func prepare(withActivityItems activityItems: [Any]) {
        items = activityItems
    }

    override func perform() {
        backends.record(items, subject: context.subject, for: descriptor.type)
        returnedItems = items
        switch backends.ending {
        case .finish(let completed): activityDidFinish(completed)
        case .finishLater(let completed, _): activityDidFinish(completed)
        case .fail(let error): activityDidFail(error)
        case .never: break
        }
    }
}
