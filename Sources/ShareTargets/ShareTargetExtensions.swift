import Foundation
import ShareSheet
import ShareSheetSystem

/// Share targets as a registry's extensions: every sheet made with the registry lists the
/// targets installed for its environment, after the application's activities and before the
/// built-ins of the same row.
@MainActor
public final class ShareTargetExtensions: ActivityExtensionCatalog {
    /// The one instance a process uses, so every registry shares its catalogs.
    public static let shared = ShareTargetExtensions()

    private var catalogs: [[String]: TargetCatalog] = [:]
    /// The catalog by the variables its folders are made from (`HOME`, `XDG_DATA_HOME`,
    /// `XDG_DATA_DIRS`): every sheet looks its catalog up, and making the folders' paths costs
    /// more than the rest of the look-up.
    private var catalogsByVariables: [[String?]: TargetCatalog] = [:]

    /// Makes an instance with no catalog read yet.
    public init() {}

    /// Makes `registry`'s sheets list the installed share targets.
    public static func install(into registry: ActivityRegistry) {
        registry.extensions = shared
    }

    /// The catalog of `environment`'s application folders, made on first use and kept.
    public func catalog(for environment: HostEnvironment) -> TargetCatalog {
        let variables = ["HOME", "XDG_DATA_HOME", "XDG_DATA_DIRS"].map { environment[$0] }
        if let catalog = catalogsByVariables[variables] { return catalog }
        let folders = TargetCatalog.folders(for: environment)
        let catalog = catalogs[folders] ?? TargetCatalog(folders: folders)
        catalogs[folders] = catalog
        catalogsByVariables[variables] = catalog
        return catalog
    }

    public func descriptors(for environment: HostEnvironment) -> [BuiltInActivityDescriptor] {
        catalog(for: environment).descriptors
    }

    public func makeActivities(for environment: HostEnvironment) -> [BuiltInActivity] {
        let catalog = catalog(for: environment)
        _ = catalog.sheetPart(for: [], settings: settings(for: environment), environment: environment)
        return catalog.prototypes(environment: environment)
    }

    public func sheetPart(for environment: HostEnvironment, itemKinds: [ItemKind]) -> ExtensionSheetPart {
        let catalog = catalog(for: environment)
        // An empty catalog costs a sheet no configuration read.
        guard !catalog.targets.isEmpty else { return ExtensionSheetPart() }
        return catalog.sheetPart(for: itemKinds, settings: settings(for: environment), environment: environment)
    }

    private var configurationFiles: [[String?]: URL] = [:]

    /// `[targets]` of `environment`'s configuration file, made again only when the file changed.
    private func settings(for environment: HostEnvironment) -> TargetSettings {
        let variables = ["HOME", "XDG_CONFIG_HOME"].map { environment[$0] }
        let file = configurationFiles[variables] ?? environment.directories.configurationFile
        configurationFiles[variables] = file
        let read = try? FileCache.value(at: file.path) { TargetSettings(configuration: try Configuration.load(file: file)) }
        return (read ?? nil) ?? TargetSettings()
    }
}
