import CGtk
import ShareSheetSystem

/// The settings window's printing, photos and nearby devices: the default printer, the folder
/// Save to Photos uses, and the name and discovery of AirDrop and receiving.
@MainActor
struct DeviceSettingsSection {
    /// The groups, in order.
    let groups: [Widget]
    private let printing: PrinterChoice
    private let photos: Widget
    private let nearbyName: Widget
    private let discovery: Widget

    /// - Parameter printers: the printers the scheduler lists; empty shows a field for a
    ///   queue's name instead of a list.
    init(_ draft: SettingsDraft, printers: [SettingsExtras.Printer] = []) {
        printing = PrinterChoice(draft.printer, printers: printers)

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
        groups = [printing.group, pictures, nearby]
    }

    /// Puts what the fields hold into `draft`.
    func read(into draft: inout SettingsDraft) {
        draft.printer = printing.printer
        draft.photosSubfolder = SettingsRows.text(of: photos)
        draft.nearbyName = SettingsRows.text(of: nearbyName)
        draft.nearbyDiscovery = SettingsRows.isOn(discovery)
    }
}

/// The default printer: a list of the printers the scheduler names, as Print's page shows
/// them, or a field for a queue's name when no scheduler answered.
@MainActor
private struct PrinterChoice {
    let group: Widget
    private let field: Widget?
    private let buttons: [Widget]
    /// The queue each button stands for; "" for the desktop's default.
    private let names: [String]

    init(_ configured: String, printers: [SettingsExtras.Printer]) {
        guard !printers.isEmpty else {
            group = SettingsRows.group(
                "Printing", description: "Empty uses the desktop's default printer. With no printer, Print saves a PDF in Documents.")
            let field = SettingsRows.entry("Default printer", text: configured)
            SettingsRows.add(field, to: group)
            self.field = field
            buttons = []
            names = []
            return
        }
        group = SettingsRows.group("Printing", description: "The printer Print starts on; Save as PDF is always offered too.")
        let choices = Self.choices(printers, configured: configured)
        let choice = SettingsRows.choice(
            "Default printer", titles: choices.map(\.title), selected: choices.firstIndex { $0.name == configured } ?? 0)
        SettingsRows.add(choice.widget, to: group)
        field = nil
        buttons = choice.buttons
        names = choices.map(\.name)
    }

    /// The queue chosen or typed; "" for the desktop's default.
    var printer: String {
        if let field { return SettingsRows.text(of: field) }
        return SettingsRows.selected(buttons).map { names[$0] } ?? ""
    }

    /// The desktop's default (naming the printer the scheduler says it is), each printer by its
    /// description and queue, and the configured one even when the scheduler does not list it
    /// now: a printer switched off stays the default until the person picks another.
    private static func choices(_ printers: [SettingsExtras.Printer], configured: String) -> [(name: String, title: String)] {
        let desktopDefault = printers.first(where: \.isDefault)
        var choices: [(name: String, title: String)] = [
            ("", desktopDefault.map { "The desktop's default: \($0.title ?? $0.name)" } ?? "The desktop's default")
        ]
        for printer in printers {
            let title = printer.title.flatMap { $0.isEmpty || $0 == printer.name ? nil : "\($0) (\(printer.name))" }
            choices.append((printer.name, title ?? printer.name))
        }
        if !configured.isEmpty, !printers.contains(where: { $0.name == configured }) {
            choices.append((configured, "\(configured) (not found now)"))
        }
        return choices
    }
}
