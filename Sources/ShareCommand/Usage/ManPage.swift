import ShareSheetSystem

/// `share.1`, the manual page, made from the same declarations as `--help` (`share man-page`;
/// `make install` writes it to `PREFIX/share/man/man1`).
enum ManPage {
    @MainActor
    static func text(activityNames: [String]) -> String {
        var page = """
            .TH SHARE 1 "" "ShareSheet \(Help.version)" "User Commands"
            .nh
            .ad l
            .SH NAME
            share \\- send files, links and text to the activities of a share sheet
            .SH SYNOPSIS
            .B share
            [\\fIoptions\\fR] \\fIITEM\\fR...
            .br
            .B share \\-\\-list
            [\\fB\\-\\-json\\fR] \\fIITEM\\fR...
            .br
            .B share \\-\\-explain
            \\fIACTIVITY\\fR \\fIITEM\\fR...
            .br
            .B share \\-\\-activity
            \\fIACTIVITY\\fR \\fIITEM\\fR...
            .br
            .B share
            \\fICOMMAND\\fR ...
            .SH DESCRIPTION
            \(escape("share opens a share sheet for its items: a window on a desktop, else a sheet in the terminal. Each activity sends the items somewhere (Mail, Message, AirDrop over LocalSend, the posting services, installed share targets) or acts on them here (Print, Copy, Save to Photos, Assign to Contact, Add to Reading List, Open In). An ITEM is a file path, an http(s) URL, another scheme's URL (mailto:, sms:, tel:, geo:), a file:// URL, or - for standard input."))
            .PP
            \(escape("ACTIVITY is one of: " + activityNames.joined(separator: ", ") + ", or a raw activity type. A prefix that names one activity picks it."))
            .PP
            \(escape("With --activity there is no sheet: on a terminal, share asks only for what the command line left out (Mail's To, a receiver's PIN); without a terminal on standard input it never prompts."))
            .SH OPTIONS

            """
        for option in ShareOptions.all { page += item(option) }
        page += ".TP\n.B \\-\\-\n" + escape("end of options: the rest are ITEMs, even with a -") + "\n"
        page += ".SH COMMANDS\n"
        for spec in Subcommands.specs {
            let forms = CommandHelp.forms(of: spec)
            page += ".SS " + escape("share \(spec.name)") + "\n" + escape(spec.summary.prefix(1).uppercased() + spec.summary.dropFirst() + ".") + "\n"
            if !spec.about.isEmpty { page += ".PP\n" + escape(spec.about) + "\n" }
            for form in forms {
                page += ".TP\n.B " + escape(form.form) + "\n" + escape(form.summary) + "\n"
            }
            for option in spec.allOptions { page += item(option) }
        }
        page += """
            .SH EXIT STATUS
            \(ExitStatuses.manPageLines).SH ENVIRONMENT
            .TP
            .B DISPLAY\\fR, \\fBWAYLAND_DISPLAY
            \(escape("the sheet is a window when either is set"))
            .TP
            .B NO_COLOR
            colors off
            .TP
            .B XDG_CONFIG_HOME\\fR, \\fBXDG_DATA_HOME\\fR, \\fBXDG_DATA_DIRS
            \(escape("where the configuration, the stores and the share targets' desktop entries are"))
            .SH FILES
            .TP
            .I $XDG_CONFIG_HOME/sharesheet/config
            \(escape("the settings of every activity ([mail], [print], [nearby], [targets]...), in GLib's key-file syntax"))
            .SH CONFIGURATION
            \(escape(ConfigurationReference.introduction))

            """
        for group in ConfigurationKeys.groups {
            page += ".SS " + escape("[\(group.name)]") + "\n" + escape(group.meaning + ConfigurationReference.readers(group) + ".") + "\n"
            for setting in group.settings {
                page += ".TP\n\\fB" + escape(setting.key) + "\\fR (default: " + escape(setting.defaultValue) + ")\n"
                page += escape(setting.meaning) + "\n"
            }
        }
        page += """
            .SH EXAMPLES

            """
        for example in ["share report.pdf", "share --list photo.jpg https://swift.org", "share --activity mail --to ana@example.com report.pdf",
            "echo \"see you at 6\" | share --activity message --to +15551234567 -", "share --activity copy --json --text hello"]
        {
            page += ".PP\n.nf\n" + escape(example) + "\n.fi\n"
        }
        page += ".SH SEE ALSO\n.BR xdg-open (1),\n.BR gdbus (1)\n"
        return page
    }

    private static func item(_ option: OptionSpec) -> String {
        var head = (option.short.map { escape($0) + ", " } ?? "") + "\\fB" + escape(option.name) + "\\fR"
        if let value = option.value { head += " \\fI" + escape(value) + "\\fR" }
        return ".TP\n" + head + "\n" + escape(option.summary) + "\n"
    }

    /// Text as roff reads it: backslashes and dashes escaped, no line starting with a dot or quote.
    static func escape(_ text: String) -> String {
        var escaped = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        if escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
        return escaped
    }
}
