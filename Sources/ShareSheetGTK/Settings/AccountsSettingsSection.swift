import CGtk

/// The settings window's posting accounts: a row per service, with Remove for one that has an
/// account and Add for the others, which shows the fields for the token (and a Mastodon
/// server) under it. An account is added or removed at once, apart from Save: a token is
/// checked as it is added. (Not an expander row: GTK 4.8 gives its header no action that
/// assistive technology can press.)
@MainActor
final class AccountsSettingsSection {
    /// The group, or none when the owner gave no accounts.
    let groups: [Widget]
    private let group: Widget?
    private let accounts: (any SettingsAccounts)?
    private let say: @MainActor (String, Bool) -> Void
    private var rows: [Widget] = []

    /// - Parameter say: shows a sentence in the window (true for a problem).
    init(_ accounts: (any SettingsAccounts)?, say: @escaping @MainActor (String, Bool) -> Void) {
        self.accounts = accounts
        self.say = say
        guard let accounts else {
            groups = []
            group = nil
            return
        }
        let group = SettingsRows.group(
            "Posting accounts", description: "Tokens are kept in the password store, or in a file only you can read.")
        self.group = group
        groups = [group]
        show(accounts.accounts())
    }

    /// Replaces the rows with one per account.
    private func show(_ list: [SettingsAccount]) {
        guard let group else { return }
        for row in rows { SettingsRows.remove(row, from: group) }
        rows = list.flatMap { $0.isAdded ? [addedRow($0)] : newRows($0) }
        for row in rows { SettingsRows.add(row, to: group) }
    }

    private func addedRow(_ account: SettingsAccount) -> Widget {
        let row = SettingsRows.action(account.title, subtitle: "Added")
        // The service in the button's own words: its accessible name is its visible title (SPEC
        // §7), and six rows of bare "Remove" or "Add…" would not say which one a button is.
        let remove = Widgets.button("Remove \(account.title) account") { [weak self] in self?.remove(account) }
        gtk_widget_set_valign(remove, GTK_ALIGN_CENTER)
        SettingsRows.addSuffix(remove, to: row)
        return row
    }

    /// The service's row with Add…, and the fields it shows: the server where the service asks
    /// for one, the token, and Add.
    private func newRows(_ account: SettingsAccount) -> [Widget] {
        let row = SettingsRows.action(account.title, subtitle: "Not added")
        let instance = account.asksForInstance
            ? SettingsRows.entry("\(account.title) server", text: account.instance ?? "") : nil
        let token = SettingsRows.entry("\(account.title) token", text: "", password: true)
        let adding = SettingsRows.action("Paste the token the service gave you", subtitle: nil)
        let add = Widgets.button("Add \(account.title) account", classes: ["suggested-action"]) {}
        gtk_widget_set_valign(add, GTK_ALIGN_CENTER)
        SettingsRows.addSuffix(add, to: adding)
        let fields = [instance, token, adding].compactMap { $0 }
        for field in fields { Widgets.show(field, false) }
        let open = Widgets.button("Add \(account.title) account…") {
            for field in fields { Widgets.show(field, true) }
            gtk_widget_grab_focus(instance ?? token)
        }
        gtk_widget_set_valign(open, GTK_ALIGN_CENTER)
        SettingsRows.addSuffix(open, to: row)
        Signals.connect(add, "clicked") { [weak self] in
            guard let self else { return }
            let typed = String(cString: gtk_editable_get_text(cg_editable(token)))
            self.add(account, token: typed, instance: instance.map(SettingsRows.text(of:)), button: add)
        }
        return [row] + fields
    }

    private func add(_ account: SettingsAccount, token: String, instance: String?, button: Widget) {
        guard let accounts else { return }
        guard !token.isEmpty else { return say("Paste the \(account.title) token first.", true) }
        gtk_widget_set_sensitive(button, 0)
        Task { @MainActor [weak self] in
            let outcome: Result<String, SettingsAccountProblem>
            do {
                outcome = .success(try await accounts.add(account.id, token: token, instance: instance))
            } catch {
                outcome = .failure(error as? SettingsAccountProblem ?? SettingsAccountProblem("Nothing was kept: \(error)."))
            }
            guard let self else { return }
            gtk_widget_set_sensitive(button, 1)
            switch outcome {
            case .success(let sentence):
                self.say(sentence, false)
                self.show(accounts.accounts())
            case .failure(let problem):
                self.say(problem.sentence, true)
            }
        }
    }

    private func remove(_ account: SettingsAccount) {
        guard let accounts else { return }
        Task { @MainActor [weak self] in
            do {
                try await accounts.remove(account.id)
                self?.say("The \(account.title) account is removed.", false)
            } catch {
                self?.say((error as? SettingsAccountProblem)?.sentence ?? "The account could not be removed: \(error).", true)
            }
            self?.show(accounts.accounts())
        }
    }
}
