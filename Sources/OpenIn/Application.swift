/// An application installed on the desktop, as its desktop entry describes it.
public struct Application: Sendable, Hashable, CustomStringConvertible {
    /// Why an application is offered for a type, in the order candidates are listed.
    public enum Role: Int, Sendable, Comparable, CustomStringConvertible {
        /// The desktop's default for the type (`mimeapps.list`, or the first registered one).
        case `default`
        /// Registered for the type itself.
        case recommended
        /// Registered only for a broader type the item also is (`text/plain` for a C file).
        case fallback
        /// Chosen by id, whatever it is registered for.
        case chosen

        public static func < (lhs: Role, rhs: Role) -> Bool { lhs.rawValue < rhs.rawValue }

        public var description: String {
            switch self {
            case .default: return "default"
            case .recommended: return "recommended"
            case .fallback: return "fallback"
            case .chosen: return "chosen"
            }
        }
    }

    /// The desktop-file id (`org.gnome.Evince.desktop`); what `--app` and `mimeapps.list` use.
    public var id: String
    /// The name people see.
    public var name: String
    /// An icon name from the desktop's icon theme, or an icon file path.
    public var iconName: String?
    /// The program the entry runs.
    public var executable: String
    /// Why it is offered.
    public var role: Role

    /// Describes an application.
    public init(id: String, name: String, iconName: String? = nil, executable: String, role: Role) {
        self.id = id
        self.name = name
        self.iconName = iconName
        self.executable = executable
        self.role = role
    }

    public var description: String { "\(name) (\(id))" }
}
