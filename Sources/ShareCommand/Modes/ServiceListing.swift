import ShareServiceProtocol
import ShareSheet
import Sharing

extension SheetListing {
    /// The listing of `share --via-service --list`: the rows as the service's `ListActivities`
    /// gives them (available ones in their category's row, in order, then the rest), the items
    /// as this command resolved them.
    /// - Parameter reason: the command's words for a reason and its facts.
    init(wire activities: [WireActivity], items: [ResolvedItem], reason: (Unavailability) -> String) {
        func entry(_ activity: WireActivity) -> Entry {
            Entry(
                name: activity.activity, type: activity.activityType.isEmpty ? nil : activity.activityType,
                title: activity.title, reason: activity.available ? nil : activity.unavailability.map(reason))
        }
        let offered = activities.filter(\.available)
        self.init(
            items: items.map { Item(label: $0.label, kind: ItemKind.of($0.value)) },
            share: offered.filter { $0.category == "share" }.map(entry),
            action: offered.filter { $0.category != "share" }.map(entry),
            unavailable: activities.filter { !$0.available }.map(entry))
    }
}

extension WireActivity {
    /// Why the service does not offer it, with the facts it sent; nil when it is offered.
    var unavailability: Unavailability? {
        reason.map { reason in
            Unavailability(
                reason, setting: reasonSetting.map(ShareError.Setting.init(wire:)),
                fix: reasonFix.flatMap(ShareError.Fix.init(rawValue:)), path: reasonPath)
        }
    }
}
