import Foundation
import ShareSheet
import ShareSheetGTK
import ShareSheetSystem

/// `share settings`: the settings window (SPEC §7), which edits the configuration file in
/// words: mail server and security, From and login (the password into the Secret Service),
/// the default printer, the photos folder, the nearby name and discovery, the share targets
/// on or off. The command ends when
/// the window closes. Without a display it says where the file is instead.
enum SettingsCommand: ShareSubcommand {
    static let spec = CommandSpec(
        name: "settings", summary: "open the settings window: mail, printer, photos, nearby devices, targets, accounts",
        about: "It edits the same configuration file as share help config describes, keeping comments "
            + "and lines it does not know; the mail password goes into the Secret Service.",
        examples: ["share settings"])

    static func run(_ arguments: [String], context: CommandContext) async throws -> Termination {
        let parsed = try options(arguments)
        if let extra = parsed.operands.first { throw ShareError(.usage, "settings: unexpected argument '\(extra)'") }
        let host = HostEnvironment(variables: context.environment)
        let file = host.directories.configurationFile
        guard context.canOpenWindows, WindowPresenter.hasDisplay(context.environment) else {
            throw ShareError(
                .unavailable,
                "settings: no display to open the window on; edit \(file.path) instead (share help config lists the settings)")
        }
        let window = try SettingsWindow.open(file: file, extras: .installed(for: host))
        await window.waitUntilClosed()
        return .success
    }
}
