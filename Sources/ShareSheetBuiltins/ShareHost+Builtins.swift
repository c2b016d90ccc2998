import ShareSheet
import Sharing

extension ShareHost {
    /// A host with every backend of this build installed, for `environment`. It lives here, not
    /// in `Sharing`, so the share layer (and the window above it) links no backend.
    public convenience init(environment: HostEnvironment) {
        let registry = ActivityRegistry(environment: environment)
        Builtins.install(into: registry)
        self.init(registry: registry)
    }
}
