import CGtk
import ShareSheetSystem

/// The settings window's share targets: a switch for each application that adds itself to the
/// sheet. A target turned off by name but not installed now stays off.
@MainActor
struct TargetsSettingsSection {
    /// The group, or none when no target is installed.
    let groups: [Widget]
    private let switches: [(name: String, toggle: Widget)]

    init(_ draft: SettingsDraft, targets: [SettingsExtras.Target]) {
        guard !targets.isEmpty else {
            groups = []
            switches = []
            return
        }
        let group = SettingsRows.group("Share targets", description: "Applications that add themselves to the share sheet.")
        var switches: [(name: String, toggle: Widget)] = []
        for target in targets {
            let row = SettingsRows.toggle(target.title, isOn: !draft.disabledTargets.contains(target.name))
            SettingsRows.add(row.row, to: group)
            switches.append((target.name, row.toggle))
        }
        groups = [group]
        self.switches = switches
    }

    /// Puts the targets turned off into `draft`, in the order they were turned off.
    func read(into draft: inout SettingsDraft) {
        var disabled = draft.disabledTargets
        for (name, toggle) in switches {
            if SettingsRows.isOn(toggle) {
                disabled.removeAll { $0 == name }
            } else if !disabled.contains(name) {
                disabled.append(name)
            }
        }
        draft.disabledTargets = disabled
    }
}
