import ShareSheetSystem

/// The configuration reference: every group and key the program reads, with its default and
/// meaning, made from `ConfigurationKeys.groups` (the table unknown keys are checked against).
/// `share help config` prints it, the man page and README.md carry it.
enum ConfigurationReference {
    /// The words `share help` takes for it.
    static let topics = ["config"]

    /// The reference as plain text, at most 80 columns wide.
    static var text: String {
        var text = CommandHelp.wrap(introduction, indent: 0) + "\n"
        for group in ConfigurationKeys.groups {
            text += "\n" + CommandHelp.wrap("[\(group.name)] \(group.meaning)\(readers(group))", indent: 0) + "\n"
            text += settingLines(group)
        }
        return text
    }

    /// The file, its syntax and where the rest is.
    static let introduction =
        "The settings are read from $XDG_CONFIG_HOME/sharesheet/config (~/.config/sharesheet/config), in GLib's "
        + "key-file syntax: a [group] line, then key=value lines. Every key is optional; a key or group not "
        + "listed here is reported as a warning. share help ACTIVITY shows the settings an activity reads and "
        + "what it does with them here. share settings edits the mail, printer, photos and nearby settings in a "
        + "window, keeping the file's comments and other lines."

    /// One line per key: the key, its default and its meaning, wrapped at 80 columns.
    static func settingLines(_ group: ConfigurationGroup) -> String {
        group.settings.map { setting in
            CommandHelp.row("\(setting.key) (default: \(setting.defaultValue))", setting.meaning)
        }.joined()
    }

    /// "; read by mail", or "; read by every share" for a group every share reads.
    static func readers(_ group: ConfigurationGroup) -> String {
        group.activities.isEmpty ? "; read by every share" : "; read by " + group.activities.joined(separator: ", ")
    }
}
