import Foundation

/// The host's environment as a sheet sees it: XDG folders, the display, the search path.
///
/// Front ends pass one in (the command its process's, the service its caller's session's), and
/// activities read from it instead of the process: a service that serves several callers, or a
/// test that runs a sheet in a throwaway home, gets what it asked for.
public struct HostEnvironment: Sendable, Equatable {
    /// The variables, by name.
    public var variables: [String: String]

    /// Where activities say what each step does (`share --verbose`); nil says nothing. Not part
    /// of equality: two hosts with the same variables are the same host.
    public var steps: StepLog?

    /// Makes an environment of exactly these variables.
    public init(variables: [String: String]) {
        self.variables = variables
    }

    public static func == (lhs: HostEnvironment, rhs: HostEnvironment) -> Bool {
        lhs.variables == rhs.variables
    }

    /// The environment of this process: the default for sheets made without a host.
    public static var process: HostEnvironment { HostEnvironment(variables: ProcessInfo.processInfo.environment) }

    /// A variable's value; nil when it is unset.
    public subscript(name: String) -> String? {
        get { variables[name] }
        set { variables[name] = newValue }
    }

    /// True when a graphical display is reachable: `WAYLAND_DISPLAY` or `DISPLAY` is set.
    public var hasDisplay: Bool {
        !(variables["WAYLAND_DISPLAY"] ?? "").isEmpty || !(variables["DISPLAY"] ?? "").isEmpty
    }
}
