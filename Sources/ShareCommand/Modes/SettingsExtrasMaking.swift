import Printing
import ShareSheet
import ShareSheetGTK
import ShareTargets

extension SettingsExtras {
    /// The extras of `host`: the share targets installed in its application folders, by title,
    /// its posting accounts, and the printers its scheduler lists (none when none answers).
    @MainActor
    static func installed(for host: HostEnvironment) -> SettingsExtras {
        let targets = ShareTargetExtensions.shared.catalog(for: host).targets
        return SettingsExtras(
            targets: targets.map { Target(name: $0.name, title: $0.title) }
                .sorted { $0.title.localizedStandardCompare($1.title) == .orderedAscending },
            accounts: WindowAccounts(host: host),
            printers: {
                PrintService(host: host).printers().map { Printer(name: $0.name, title: $0.info, isDefault: $0.isDefault) }
            })
    }
}
