import CGtk
import ShareSheetSystem

/// The settings window's printing, photos and nearby devices: the default printer, the folder
/// Save to Photos uses, and the name and discovery of AirDrop and receiving.
@MainActor
struct DeviceSettingsSection {
    /// The groups, in order.
    let groups: [Widget]
    private let printer: Widget
    private let photos: Widget
    private let nearbyName: Widget
    private let discovery: Widget

    init(_ draft: SettingsDraft) {
        let printing = SettingsRows.group(
            "Printing", description: "Empty uses the desktop's default printer. With no printer, Print saves a PDF in Documents.")
        printer = SettingsRows.entry("Default printer", text: draft.printer)
        SettingsRows.add(printer, to: printing)

        let pictures = SettingsRows.group(
            "Photos", description: "A folder inside Pictures and Videos for Save to Photos; empty saves there directly.")
        photos = SettingsRows.entry("Photos folder", text: draft.photosSubfolder)
        SettingsRows.add(photos, to: pictures)

        let nearby = SettingsRows.group("Nearby devices", description: "How AirDrop and receiving appear to devices around you.")
        nearbyName = SettingsRows.entry("Name other devices see", text: draft.nearbyName)
        let finding = SettingsRows.toggle(
            "Find nearby devices", subtitle: "When off, only addresses you type are reached.", isOn: draft.nearbyDiscovery)
        discovery = finding.toggle
        SettingsRows.add(nearbyName, to: nearby)
        SettingsRows.add(finding.row, to: nearby)
        groups = [printing, pictures, nearby]
    }

    /// Puts what the fields hold into `draft`.
    func read(into draft: inout SettingsDraft) {
        draft.printer = SettingsRows.text(of: printer)
        draft.photosSubfolder = SettingsRows.text(of: photos)
        draft.nearbyName = SettingsRows.text(of: nearbyName)
        draft.nearbyDiscovery = SettingsRows.isOn(discovery)
    }
}
