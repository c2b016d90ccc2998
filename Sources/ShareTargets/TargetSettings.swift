import Foundation
import ShareSheet
import ShareSheetSystem

/// The `[targets]` group of the configuration file:
///
/// ```
/// [targets]
/// disabled=org.example.Notes;sharesheet-gimp
/// timeout=60
/// ```
public struct TargetSettings: Sendable, Equatable {
    /// The group's name.
    public static let group = "targets"
    /// The names (desktop ids without `.desktop`) the person turned off.
    public var disabled: Set<String> = []
    /// How long a D-Bus target may take to answer `Share`, in seconds.
    public var timeout: Double = 60
    /// The setting `timeout` is read from (`targets.timeout`).
    public static let timeoutSetting = ShareError.Setting(group: group, "timeout")

    /// The defaults: nothing turned off, 60 s.
    public init() {}

    /// Reads `[targets]` from `configuration`; a timeout that is not a positive number is the
    /// default (`ShareHost.configurationWarnings()` is where misspelled keys are said).
    public init(configuration: Configuration) {
        if let list = configuration.string("disabled", in: Self.group) {
            disabled = Set(Self.names(in: list))
        }
        if let text = configuration.string("timeout", in: Self.group), let seconds = Double(text), seconds > 0 {
            timeout = seconds
        }
    }

    /// The settings of `environment`'s configuration file; the defaults when it cannot be read.
    public init(environment: HostEnvironment) {
        if let configuration = try? environment.loadConfiguration() {
            self.init(configuration: configuration)
        } else {
            self.init()
        }
    }

    /// The names in a `disabled=` value (`;` or `,` between them).
    static func names(in list: String) -> [String] {
        list.split(whereSeparator: { $0 == ";" || $0 == "," }).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    /// Turns the target `name` off or on in `environment`'s configuration file, keeping every
    /// other line and comment (the file is rewritten atomically).
    /// - Returns: false when it already was.
    @discardableResult
    public static func set(_ name: String, enabled: Bool, in environment: HostEnvironment) throws -> Bool {
        let file = environment.directories.configurationFile
        var changed = false
        try ConfigurationEditor.update(file) { current in
            var names = current(group, "disabled").map(Self.names(in:)) ?? []
            if enabled {
                changed = names.contains(name)
                names.removeAll { $0 == name }
            } else {
                changed = !names.contains(name)
                if changed { names.append(name) }
            }
            return changed ? [(group, "disabled", names.isEmpty ? nil : names.joined(separator: ";"))] : []
        }
        return changed
    }
}
