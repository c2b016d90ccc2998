import ShareSheet
import Sharing

/// A caller's own action (`custom-actions`: "Copy link", "Export"…), shown in the sheet beside
/// ours. Picking it ends the request with `activity = app.ID`; the caller does the work.
final class CustomAction: Activity, ActivityIconNaming {
    let id: String
    let title: String
    let iconName: String

    init(id: String, title: String, iconName: String?) {
        self.id = id
        self.title = title
        self.iconName = iconName ?? ActivityNames.fallbackIconName
        super.init()
    }

    override var activityType: ActivityType? { ActivityType("app." + id) }
    override var activityTitle: String? { title }
    override class var activityCategory: Category { .action }
    override func canPerform(withActivityItems activityItems: [Any]) -> Bool { true }
    override func perform() { activityDidFinish(true) }
}
