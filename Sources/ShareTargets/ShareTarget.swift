import Foundation
import ShareSheet

/// One installed share target: what its desktop entry says (SPEC §9).
public struct ShareTarget: Sendable {
    /// How the sheet reaches the target.
    public enum Reach: Sendable, Equatable {
        /// `Share` on `org.sharesheet.Target1` at this activatable bus name.
        case dbus(name: String)
        /// The entry's `Exec=` line, given the items as paths (`%f`, `%F`) or URIs (`%u`, `%U`).
        case exec(commandLine: String)
    }

    /// The desktop file id (`org.example.Notes.desktop`).
    public var desktopID: String
    /// The entry's file.
    public var path: String
    /// `Name=`, in the person's language where the entry has it.
    public var title: String
    /// `Icon=`: a theme icon name or an absolute path; nil when the entry has none.
    public var iconName: String?
    /// `X-ShareSheet-Category=`: the row the target appears in.
    public var category: Activity.Category
    /// `X-ShareSheet-Accepts=`; nil when it could not be read (`problem` says why).
    public var accepts: TargetAccepts?
    /// How it is reached; nil when neither a bus name nor a usable `Exec=` is given.
    public var reach: Reach?
    /// Why it can never be offered as installed (a missing program, a broken key); nil when fine.
    public var problem: String?
    /// `X-ShareSheet-Network=true`: the target sends what it gets over the network (a cloud
    /// drive, a chat), so photos lose their location unless the person keeps it (SPEC §13).
    public var sendsItemsAway = false

    /// The name the `share` command uses: the desktop file id without `.desktop`.
    public var name: String { Self.name(ofDesktopID: desktopID) }

    /// `org.sharesheet.target.<name>`.
    public var activityType: ActivityType { ActivityType(Self.typePrefix + name) }

    /// The prefix of every target's activity type.
    public static let typePrefix = "org.sharesheet.target."

    /// `org.example.Notes.desktop` → `org.example.Notes`.
    public static func name(ofDesktopID id: String) -> String {
        id.hasSuffix(".desktop") ? String(id.dropLast(".desktop".count)) : id
    }

    /// The object path a D-Bus target serves `org.sharesheet.Target1` at: the bus name with
    /// `.` as `/` (`org.example.Notes` → `/org/example/Notes`); `-`, which a path cannot hold,
    /// becomes `_`.
    public static func objectPath(forBusName name: String) -> String {
        "/" + name.replacingOccurrences(of: ".", with: "/").replacingOccurrences(of: "-", with: "_")
    }
}
