import ShareSheetBuiltins

extension ActivityRegistry {
    /// The registry UIKit-style sheets use: the built-in catalog with every backend this build
    /// has, installed the first time a sheet needs it.
    ///
    /// It is its own registry, not `ActivityRegistry.shared`: a ported sheet offers what an
    /// iOS sheet offers, while code that set up the shared registry (its own backends, test
    /// fakes) keeps what it installed there.
    public static let builtIns: ActivityRegistry = {
        let registry = ActivityRegistry()
        Builtins.install(into: registry)
        return registry
    }()
}

extension ActivityViewController {
    /// Makes a controller for `activityItems` (at least one) that offers the application's
    /// activities and every built-in this build has a backend for, as `UIActivityViewController`
    /// does on iOS.
    ///
    /// The built-ins come from ``ActivityRegistry/builtIns``. A file that imports ShareSheet as
    /// well as ShareSheetUIKit gets ShareSheet's own initializer instead, whose registry is
    /// `ActivityRegistry.shared`: import ShareSheetUIKit alone, it brings ShareSheet with it.
    // Where ShareSheetUIKit is the only import that brings ShareSheet in, this declaration hides
    // ShareSheet's initializer of the same name, so ported code gets the built-ins unchanged.
    // Disfavored so that a file importing both modules still compiles instead of meeting two
    // equally good candidates.
    @_disfavoredOverload
    public convenience init(activityItems: [Any], applicationActivities: [Activity]?) {
        self.init(activityItems: activityItems, applicationActivities: applicationActivities, registry: .builtIns)
    }
}
