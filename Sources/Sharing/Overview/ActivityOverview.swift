import ShareSheet
import ShareSheetSystem

/// What an activity is and does on this machine, without any items: its names, what it
/// takes, where its work goes with this configuration, the fields its interface asks and the
/// configuration groups it reads. Every front end's help about one activity is made from it.
@MainActor
public struct ActivityOverview {
    /// Its names and row.
    public var name: ActivityName
    /// The items it accepts, in words ("text, links, files"); nil for an activity the
    /// registry does not describe.
    public var accepts: String?
    /// Why it can never be offered in this build (no backend, a closed service), when so.
    public var unavailable: String?
    /// Where its work goes here; nil when the activity says nothing.
    public var route: ActivityRoute?
    /// The fields of its interface, as before any item is given.
    public var fields: [InterfaceField]
    /// The configuration groups it reads, with their keys, defaults and meanings.
    public var configuration: [ConfigurationGroup]
}

extension ShareHost {
    /// The overview of the activity named `name` (a CLI name, a raw type, or a prefix of one
    /// name), made from a fresh activity in the host's environment. Nothing is sent, discovered
    /// or written.
    /// - Throws: a usage error with the closest names when nothing has that name.
    public func overview(ofActivityNamed name: String) throws -> ActivityOverview {
        let type = try names.type(named: name)
        return overview(of: type, activity: registry.makeActivities().first { $0.activityType == type })
    }

    /// The overview of every built-in and installed share target, in `names.all` order, made
    /// from one set of fresh activities.
    public func overviews() -> [ActivityOverview] {
        let activities = registry.makeActivities()
        return names.all.compactMap { name in
            guard let type = try? names.type(named: name) else { return nil }
            return overview(of: type, activity: activities.first { $0.activityType == type })
        }
    }

    /// The `--set` keys of an overview's activity: its field ids, then its settings' keys.
    public static func settingKeys(of overview: ActivityOverview) -> [String] {
        var seen = Set<String>()
        let keys = overview.fields.map(\.id) + overview.configuration.flatMap { $0.settings.map(\.key) }
        return keys.filter { seen.insert($0).inserted }
    }

    private func overview(of type: ActivityType, activity: Activity?) -> ActivityOverview {
        let descriptor = registry.descriptor(for: type)
        let entry = activity.map(names.entry(for:))
            ?? ActivityName(
                name: names.name(of: type), activityType: type.rawValue, title: descriptor?.title ?? type.rawValue,
                iconName: ActivityNames.fallbackIconName, category: descriptor?.category == .share ? "share" : "action")
        let unavailable = (activity as? UnavailableBuiltInActivity)?.reason
        return ActivityOverview(
            name: entry, accepts: descriptor?.acceptance.summary, unavailable: unavailable,
            route: unavailable == nil ? activity?.route : nil, fields: unavailable == nil ? activity?.declaredFields ?? [] : [],
            configuration: ConfigurationKeys.declarations(forActivity: entry.name))
    }
}
