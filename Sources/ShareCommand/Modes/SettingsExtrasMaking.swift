import ShareSheet
import ShareSheetGTK
import ShareTargets

extension SettingsExtras {
    /// The extras of `host`: the share targets installed in its application folders, by title,
    /// and its posting accounts.
    @MainActor
    static func installed(for host: HostEnvironment) -> SettingsExtras {
        let targets = ShareTargetExtensions.shared.catalog(for: host).targets
        return SettingsExtras(
            targets: targets.map { Target(name: $0.name, title: $0.title) }
                .sorted { $0.title.localizedStandardCompare($1.title) == .orderedAscending },
            accounts: WindowAccounts(host: host))
    }
}
