import CGIO
import Foundation
import GSignals
import Synchronization
import ShareSheet
import ShareSheetSystem

/// The share targets installed in a set of XDG application folders: read once, kept, and read
/// again only after a file monitor saw one of the folders change, so building a sheet never
/// scans the folders.
@MainActor
public final class TargetCatalog {
    /// The `applications` folders, the one that wins first: the data home's, then each data dir's.
    public let folders: [String]
    /// How many times the folders were read (tests and the benchmark check the cache with it).
    public private(set) var scanCount = 0
    /// Entries that could not be read at all, each with its reason, from the last reading.
    public private(set) var unreadable: [String] = []
    private var cached: [ShareTarget]?
    private var cachedDescriptors: [BuiltInActivityDescriptor]?
    private var cachedPrototypes: [TargetActivity]?
    /// The folders' monitors, released with the catalog.
    private nonisolated(unsafe) var monitors: [UnsafeMutableRawPointer] = []
    private var watched = false
    /// Set by the monitors, on whatever thread runs the main context's loop; read by the next
    /// sheet. The monitors hold it, not the catalog, so a late report never reaches a freed one.
    private let changes = FolderChanges()

    /// A catalog of the targets under `folders` (highest precedence first).
    public init(folders: [String]) {
        self.folders = folders
    }

    /// The application folders of `environment`: `$XDG_DATA_HOME/applications`, then each of
    /// `$XDG_DATA_DIRS`'s.
    public nonisolated static func folders(for environment: HostEnvironment) -> [String] {
        let directories = environment.directories
        return ([directories.dataHome] + directories.dataDirs).map { $0.appendingPathComponent("applications").path }
    }

    /// Every target installed now, in desktop-id order.
    public var targets: [ShareTarget] {
        if changes.changed.exchange(false, ordering: .acquiringAndReleasing) { invalidate() }
        if let cached { return cached }
        let read = scan()
        cached = read
        return read
    }

    /// The descriptor a sheet knows each target by, in `targets`' order.
    public var descriptors: [BuiltInActivityDescriptor] {
        if let cachedDescriptors { return cachedDescriptors }
        let made = targets.map(Self.descriptor(for:))
        cachedDescriptors = made
        return made
    }

    /// One activity per target, which the sheets share (each makes a fresh one when picked).
    func prototypes(environment: HostEnvironment) -> [TargetActivity] {
        let targets = self.targets
        if let cachedPrototypes { return cachedPrototypes }
        let made = zip(targets, descriptors).map { target, descriptor in
            let prototype = TargetActivity(
                target: target, descriptor: descriptor, settings: TargetSettings(), sheetSettings: sheetSettings)
            prototype.hostEnvironment = environment
            return prototype
        }
        cachedPrototypes = made
        return made
    }

    /// The settings of the sheet being built, shared by the prototypes.
    private let sheetSettings = SheetSettings()
    /// The last sheets' parts, by their kinds and the targets turned off: a desktop shares the
    /// same few kinds of items again and again.
    private var parts: [(kinds: SheetKinds, disabled: Set<String>, part: ExtensionSheetPart)] = []

    /// The targets offered on a sheet of `kinds`, by row, and the others with their reasons.
    func sheetPart(for kinds: [ItemKind], settings: TargetSettings, environment: HostEnvironment) -> ExtensionSheetPart {
        let prototypes = self.prototypes(environment: environment)
        sheetSettings.settings = settings
        guard !prototypes.isEmpty else { return ExtensionSheetPart() }
        let sheet = SheetKinds(kinds)
        if let kept = parts.first(where: { $0.disabled == settings.disabled && $0.kinds.sameKinds(as: sheet) }) {
            return kept.part
        }
        var part = ExtensionSheetPart()
        for prototype in prototypes {
            if let why = prototype.verdict(for: sheet) {
                part.unavailable.append((prototype, why.reason))
                if why.fix != nil { part.unavailableFixes[ObjectIdentifier(prototype)] = why }
            } else if prototype.target.category == .share {
                part.shareRow.append(prototype)
            } else {
                part.actionRow.append(prototype)
            }
        }
        if parts.count >= 8 { parts.removeFirst() }
        parts.append((sheet, settings.disabled, part))
        return part
    }

    /// Forgets what was read: the next sheet reads the folders again.
    public func invalidate() {
        cached = nil
        cachedDescriptors = nil
        cachedPrototypes = nil
        parts = []
    }

    deinit {
        for monitor in monitors {
            g_file_monitor_cancel(monitor.assumingMemoryBound(to: GFileMonitor.self))
            g_object_unref(monitor)
        }
    }

    /// How a sheet knows a target: its type, title, CLI name, row and accepted kinds.
    static func descriptor(for target: ShareTarget) -> BuiltInActivityDescriptor {
        let accepts = target.accepts
        return BuiltInActivityDescriptor(
            type: target.activityType, title: target.title, name: target.name, category: target.category,
            acceptance: ItemAcceptance(accepts?.summary ?? "nothing (its entry is broken)") { kind in
                accepts?.accepts(kind) ?? false
            })
    }

    // MARK: Reading the folders

    private func scan() -> [ShareTarget] {
        scanCount += 1
        if !watched { watch() }
        var seen = Set<String>()
        var found: [ShareTarget] = []
        var unreadable: [String] = []
        for folder in folders {
            for (id, path) in Self.entries(in: folder, prefix: "") {
                // The first folder that has an id wins, even when its entry hides the target.
                guard seen.insert(id).inserted else { continue }
                do {
                    if case .target(let target) = try DesktopEntryReader.read(path: path, desktopID: id) {
                        found.append(target)
                    }
                } catch let problem as TargetEntryProblem {
                    unreadable.append(problem.message)
                } catch {
                    unreadable.append("\(path): \(error)")
                }
            }
        }
        self.unreadable = unreadable
        return found.sorted { $0.desktopID < $1.desktopID }
    }

    /// The desktop entries under `folder` by desktop id: a file in a subfolder `kde/` is
    /// `kde-name.desktop`, as the desktop entry specification says.
    private static func entries(in folder: String, prefix: String) -> [(id: String, path: String)] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        var result: [(String, String)] = []
        for name in names.sorted() {
            let path = folder + "/" + name
            if name.hasSuffix(".desktop") {
                result.append((prefix + name, path))
            } else {
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
                    result += entries(in: path, prefix: prefix + name + "-")
                }
            }
        }
        return result
    }

    // MARK: Watching

    /// Monitors each folder (GIO polls for one that does not exist yet), so an entry added,
    /// changed or removed is seen by the next sheet, in a process that keeps running (the
    /// service, a window left open). The monitors report on the main context's loop.
    private func watch() {
        watched = true
        for folder in folders {
            let file = g_file_new_for_path(folder)
            defer { g_object_unref(UnsafeMutableRawPointer(file)) }
            guard let monitor = g_file_monitor_directory(file, G_FILE_MONITOR_WATCH_MOVES, nil, nil) else { continue }
            // The handler holds its own reference to the flag, released with the handler.
            Signal.connect(UnsafeMutableRawPointer(monitor), "changed") { [changes] _ in
                changes.changed.store(true, ordering: .releasing)
            }
            monitors.append(UnsafeMutableRawPointer(monitor))
        }
    }
}

/// Whether a watched folder changed since the catalog last looked.
final class FolderChanges: Sendable {
    let changed = Atomic<Bool>(false)
}
