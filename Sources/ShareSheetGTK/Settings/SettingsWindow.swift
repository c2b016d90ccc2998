import CGtk
import Foundation
import Secrets
import ShareSheet
import ShareSheetSystem

/// The settings window (SPEC §7): mail server and security, From and login, the default
/// printer, the photos folder, the nearby name and discovery, the share targets on or off and
/// the posting accounts, in libadwaita's preferences rows. It edits the same configuration
/// file as a text editor would, through `SettingsDraft`: only what the person changed is
/// written, atomically, and every other line stays. It speaks in words: no option, group or
/// key appears anywhere in it.
///
/// Opened by `share settings`, and by Settings… on a result page whose fix is a setting.
@MainActor
public final class SettingsWindow {
    /// True once the window is gone.
    public private(set) var isClosed = false
    let widget: Widget
    private let file: URL
    private let status: Widget
    private let save: Widget
    private var original: SettingsDraft
    private var mail: MailSettingsSection?
    private var devices: DeviceSettingsSection?
    private var targets: TargetsSettingsSection?
    private var accounts: AccountsSettingsSection?
    private let saved: @MainActor () -> Void
    private var closeWaiters: [CheckedContinuation<Void, Never>] = []

    /// Opens the window for `file` on the display (`share settings`).
    /// - Throws: `ShareError(.unavailable)` when no window can be opened.
    public static func open(file: URL, extras: SettingsExtras = SettingsExtras()) throws -> SettingsWindow {
        try WindowPresenter.connectToDisplay()
        return SettingsWindow(file: file, extras: extras, parent: nil, saved: {})
    }

    /// Opens the window above `parent` (a result page's window); `saved` runs after each save.
    init(file: URL, extras: SettingsExtras, parent: Widget?, saved: @escaping @MainActor () -> Void) {
        self.file = file
        self.saved = saved
        widget = adw_window_new()
        gtk_window_set_title(cg_window(widget), "Settings")
        gtk_window_set_default_size(cg_window(widget), 560, 720)
        gtk_widget_set_size_request(widget, 320, -1)
        if let parent { gtk_window_set_transient_for(cg_window(widget), cg_window(parent)) }

        let bar = adw_header_bar_new()!
        save = gtk_button_new_with_label("Save")
        gtk_widget_add_css_class(save, "suggested-action")
        cg_set_accessible_label(save, "Save")
        adw_header_bar_pack_end(cg_header_bar(bar), save)
        status = Widgets.label("", wraps: true)
        Widgets.margins(status, 12)
        Widgets.show(status, false)
        let page = adw_preferences_page_new()!
        gtk_widget_set_vexpand(page, 1)
        let column = Widgets.vertical(spacing: 0)
        Widgets.append(column, bar, status, page)
        adw_window_set_content(cg_adw_window(widget), column)

        do {
            original = try SettingsDraft.load(file: file)
            let mail = MailSettingsSection(original)
            let devices = DeviceSettingsSection(original, printers: extras.printers())
            let targets = TargetsSettingsSection(original, targets: extras.targets)
            for group in mail.groups + devices.groups + targets.groups {
                adw_preferences_page_add(
                    UnsafeMutableRawPointer(page).assumingMemoryBound(to: AdwPreferencesPage.self),
                    UnsafeMutableRawPointer(group).assumingMemoryBound(to: AdwPreferencesGroup.self))
            }
            self.mail = mail
            self.devices = devices
            self.targets = targets
            let accounts = AccountsSettingsSection(extras.accounts) { [weak self] sentence, isProblem in
                self?.say(sentence, isProblem: isProblem)
            }
            for group in accounts.groups {
                adw_preferences_page_add(
                    UnsafeMutableRawPointer(page).assumingMemoryBound(to: AdwPreferencesPage.self),
                    UnsafeMutableRawPointer(group).assumingMemoryBound(to: AdwPreferencesGroup.self))
            }
            self.accounts = accounts
        } catch {
            original = SettingsDraft()
            say(
                "The settings file has a line that cannot be read, so it cannot be changed here. Correct it in a text editor first.",
                isProblem: true)
            gtk_widget_set_sensitive(save, 0)
        }
        Signals.connect(save, "clicked") { [weak self] in self?.saveChanges() }

        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        Signals.connectKeyPressed(UnsafeMutableRawPointer(keys)) { [weak self] key, _ in
            guard key == UInt32(GDK_KEY_Escape) else { return false }
            self?.close()
            return true
        }
        gtk_widget_add_controller(widget, keys)
        Signals.connect(widget, "destroy") { [weak self] in self?.wasDestroyed() }
        Renderer.realize(widget)
        gtk_window_present(cg_window(widget))
    }

    /// Brings the window to the front.
    func raise() { gtk_window_present(cg_window(widget)) }

    /// Closes the window.
    public func close() {
        guard !isClosed else { return }
        gtk_window_destroy(cg_window(widget))
    }

    /// Waits until the window has closed.
    public func waitUntilClosed() async {
        if isClosed { return }
        await withCheckedContinuation { closeWaiters.append($0) }
    }

    /// Save: the problems in words when there are any, else the changes written and the
    /// password kept, and a sentence that says so.
    private func saveChanges() {
        guard let mail, let devices else { return }
        var draft = original
        mail.read(into: &draft)
        devices.read(into: &draft)
        targets?.read(into: &draft)
        let password = mail.typedPassword
        var problems = draft.problems
        if password != nil, draft.mailUser.isEmpty || draft.mailServer.isEmpty {
            problems.append("A password needs the mail server and the login name it belongs to.")
        }
        guard problems.isEmpty else { return say(problems.joined(separator: " "), isProblem: true) }
        do {
            try draft.save(to: file, from: original)
        } catch {
            return say("The settings could not be saved: \((error as? ShareError)?.message ?? "\(error)").", isProblem: true)
        }
        original = SettingsDraft(configuration: (try? Configuration.load(file: file)) ?? Configuration([:]))
        saved()
        guard let password else { return say("Settings saved.", isProblem: false) }
        let attributes = ["service": "smtp", "server": Self.host(of: draft.mailServer), "user": draft.mailUser]
        let environment = ProcessInfo.processInfo.environment
        gtk_widget_set_sensitive(save, 0)
        Task { @MainActor [weak self] in
            let kept = await Task.detached { () -> String? in
                guard SecretStore.busIsPresent(environment: environment) else { return Self.noPasswordStore }
                do {
                    try SecretStore.store(password, attributes: attributes, label: "ShareSheet SMTP")
                    return nil
                } catch let failure as SecretStore.Failure {
                    return failure.unreachable ? Self.noPasswordStore : "The password could not be kept: \(failure.message)."
                } catch {
                    return "The password could not be kept: \(error)."
                }
            }.value
            guard let self, !self.isClosed else { return }
            gtk_widget_set_sensitive(self.save, 1)
            if let kept {
                self.say("Settings saved. " + kept, isProblem: true)
            } else {
                self.mail?.forgetTypedPassword()
                self.say("Settings saved, and the password is kept in the password store.", isProblem: false)
            }
        }
    }

    private nonisolated static let noPasswordStore =
        "The password could not be kept: no password store (Secret Service) is running on this desktop."

    /// The host of a typed server (`host:port` or a URL), as the mail settings look the password up.
    private static func host(of server: String) -> String {
        let bare = SettingsDraft.serverParts(server).server
        if bare.hasPrefix("["), let end = bare.firstIndex(of: "]") { return String(bare[bare.index(after: bare.startIndex)..<end]) }
        if let colon = bare.lastIndex(of: ":"), bare.firstIndex(of: ":") == colon { return String(bare[..<colon]) }
        return bare
    }

    /// Shows `sentence` above the settings, in the error colour for a problem.
    private func say(_ sentence: String, isProblem: Bool) {
        Widgets.setText(status, sentence)
        if isProblem { gtk_widget_add_css_class(status, "error") } else { gtk_widget_remove_css_class(status, "error") }
        Widgets.show(status, true)
    }

    private func wasDestroyed() {
        guard !isClosed else { return }
        isClosed = true
        let waiting = closeWaiters
        closeWaiters = []
        for waiter in waiting { waiter.resume() }
    }
}
