import Foundation
import ShareSheet
import ShareSheetSystem

/// Where Print sends a job with a host's configuration, as an `ActivityRoute`: the printer
/// `[print] printer=` names, else the scheduler's default, else a PDF in the Documents folder.
/// It asks the scheduler for its printers; it prints nothing.
enum PrintRoute {
    static func route(service: PrintService, host: HostEnvironment) -> ActivityRoute {
        let settings = [ActivityRoute.Setting(group: "print", key: "printer")]
        let configured: String?
        do {
            configured = try host.loadConfiguration().string("printer", in: "print").flatMap {
                $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0
            }
        } catch let error as ShareError {
            return ActivityRoute("cannot print: \(error.message)", settings: settings)
        } catch {
            return ActivityRoute("cannot print: \(error)", settings: settings)
        }
        do {
            if let printer = try service.destination(for: PrintOptions(printer: configured)) {
                let which = configured != nil ? " (the printer chosen in the settings)" : " (the scheduler's default)"
                return ActivityRoute("prints to \(printer)\(which)", settings: settings)
            }
        } catch let error as ShareError {
            return ActivityRoute("cannot print: \(error.message)", settings: settings)
        } catch {
            return ActivityRoute("cannot print: \(error)", settings: settings)
        }
        // A setting cannot conjure a printer: what changes this is a printer added to CUPS.
        return ActivityRoute(
            "no printer: saves a PDF into \(service.documentsFolder.path) (a printer added to CUPS is used instead)",
            isFallback: true)
    }
}
