import ShareSheet

/// Installs the backends of the built-in activities that this build has.
///
/// Each backend module adds one line here when it lands; built-ins without a line stay listed
/// as unavailable with the registry's reason, never faked.
@MainActor
public enum Builtins {
    /// Installs every backend this build has into `registry`.
    public static func install(into registry: ActivityRegistry = .shared) {
        _ = registry
    }
}
