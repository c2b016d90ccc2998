import CGtk
import ShareSheetSystem

/// The settings window's mail: the server and how it is secured, the From address and the
/// login. The password is not in the configuration file: it goes to the Secret Service.
@MainActor
struct MailSettingsSection {
    /// The groups, in order.
    let groups: [Widget]
    private let server: Widget
    private let security: [Widget]
    private let from: Widget
    private let user: Widget
    private let password: Widget

    /// Each security choice's title, in `SettingsDraft.MailSecurity.allCases` order.
    static let securityTitles = [
        "STARTTLS, required", "STARTTLS when the server offers it", "No encryption", "TLS from the start",
    ]

    init(_ draft: SettingsDraft) {
        let serverGroup = SettingsRows.group(
            "Mail", description: "Where mail is sent from this computer. With no server, mail waits in the outbox.")
        server = SettingsRows.entry("Mail server", text: draft.mailServer)
        from = SettingsRows.entry("From address", text: draft.mailFrom)
        user = SettingsRows.entry("Login name", text: draft.mailUser)
        password = SettingsRows.entry("Password", text: "", password: true)
        for row in [server, from, user, password] { SettingsRows.add(row, to: serverGroup) }

        let securityGroup = SettingsRows.group(
            "Mail security",
            description: "No encryption suits only a relay on this computer or your own network.")
        let choice = SettingsRows.choice(
            "Mail security", titles: Self.securityTitles,
            selected: SettingsDraft.MailSecurity.allCases.firstIndex(of: draft.mailSecurity) ?? 0)
        security = choice.buttons
        SettingsRows.add(choice.widget, to: securityGroup)
        groups = [serverGroup, securityGroup]
    }

    /// Puts what the fields hold into `draft`.
    func read(into draft: inout SettingsDraft) {
        draft.mailServer = SettingsRows.text(of: server)
        if let index = SettingsRows.selected(security) { draft.mailSecurity = SettingsDraft.MailSecurity.allCases[index] }
        draft.mailFrom = SettingsRows.text(of: from)
        draft.mailUser = SettingsRows.text(of: user)
    }

    /// The password typed, when one was; it is stored apart from the other settings.
    var typedPassword: String? {
        let text = String(cString: gtk_editable_get_text(cg_editable(password)))
        return text.isEmpty ? nil : text
    }

    /// Empties the password field once the password is kept.
    func forgetTypedPassword() { gtk_editable_set_text(cg_editable(password), "") }
}
