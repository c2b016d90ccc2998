import CGtk
import ShareSheet

/// AirDrop's own page (SPEC §7, "designed, not generated"), drawn after the iOS AirDrop sheet:
/// the devices nearby as they answer, picked with one click; "No devices found" with Retry once
/// the search has had its time; and under them an address entry, since the answer to a network
/// that blocks discovery is to type the device's address. Back returns to the sheet, Cancel ends
/// the share.
///
/// The page only draws the activity's interface: the devices are the options of its device
/// field, the search's length and Retry come with them (`ChoiceOptions.searchPeriod`,
/// `searchAgain`), and picking hands the field's values to `submit` as the generic form would,
/// so the PIN a receiver asks for later comes through the session's need page as before.
@MainActor
final class AirDropPage {
    let widget: Widget

    private let interface: ActivityInterface
    private let deviceField: InterfaceField
    private let options: ChoiceOptions
    private let submit: @MainActor (InterfaceValues) -> [String: String]
    private let cancelAction: @MainActor () -> Void
    private let backAction: (@MainActor () -> Void)?
    private var finished = false

    private let devices = DeviceList()
    private let searching: Widget
    private let devicesHeading: Widget
    private let headingSpinner: Widget
    private let nothingFound: Widget
    private let retryButton: Widget
    private let address: Widget
    private let addressProblem: Widget
    /// True while the search still has time; the timer of an earlier search is ignored.
    private var isSearching = false
    private var searchNumber = 0
    /// Set while a typed address is made an option, so it gets no row of its own.
    private var addingTypedAddress = false

    /// The interface's device field with streaming options, when it has one: what this page is for.
    static func deviceField(of interface: ActivityInterface) -> (InterfaceField, ChoiceOptions)? {
        for field in interface.fields {
            if case .choice(let options) = field.kind, field.id == "to" { return (field, options) }
        }
        return nil
    }

    /// - Parameters:
    ///   - interface: AirDrop's interface; its `to` field holds the devices.
    ///   - submit: hands the values to the controller; returns the problems it found.
    ///   - back: returns to the sheet; nil when there is no sheet to return to.
    ///   - cancel: ends the share.
    init?(
        interface: ActivityInterface, submit: @escaping @MainActor (InterfaceValues) -> [String: String],
        back: (@MainActor () -> Void)?, cancel: @escaping @MainActor () -> Void
    ) {
        guard let (field, options) = Self.deviceField(of: interface) else { return nil }
        self.interface = interface
        deviceField = field
        self.options = options
        self.submit = submit
        backAction = back
        cancelAction = cancel

        let page = Widgets.vertical(spacing: 18)
        Widgets.margins(page, 18)

        // Searching, before anything answered: a spinner and what is going on, in the middle.
        searching = Widgets.vertical(spacing: 12)
        gtk_widget_set_margin_top(searching, 24)
        let spinner = gtk_spinner_new()!
        gtk_spinner_start(cg_spinner(spinner))
        gtk_widget_set_size_request(spinner, 32, 32)
        cg_set_accessible_label(spinner, "Searching")
        Widgets.append(
            searching, spinner,
            Self.centered("Looking for devices nearby…", classes: ["title-4"]),
            Self.centered("Phones and computers on this network with LocalSend open appear here.", classes: ["dim-label"]))

        // The devices, with a small spinner beside the heading while more may come.
        devicesHeading = Widgets.horizontal(spacing: 8)
        let headingLabel = Widgets.label("Devices", classes: ["heading"])
        gtk_widget_set_hexpand(headingLabel, 1)
        headingSpinner = gtk_spinner_new()
        gtk_spinner_start(cg_spinner(headingSpinner))
        cg_set_accessible_label(headingSpinner, "Searching for more devices")
        Widgets.append(devicesHeading, headingLabel, headingSpinner)
        let deviceSection = Widgets.vertical(spacing: 8)
        Widgets.append(deviceSection, devicesHeading, devices.widget)

        // Nothing answered in time: say so in a sentence, and offer to look again.
        nothingFound = Widgets.vertical(spacing: 12)
        gtk_widget_set_margin_top(nothingFound, 24)
        let retryAction = ActionRelay()
        retryButton = Widgets.button("Retry", classes: ["pill"]) { retryAction.run() }
        gtk_widget_set_halign(retryButton, GTK_ALIGN_CENTER)
        Widgets.append(
            nothingFound, Widgets.themedIcon("network-wireless-offline", size: 48),
            Self.centered("No devices found", classes: ["title-4"]),
            Self.centered(
                options.searchPeriod == nil
                    ? Sentence.of(interface.message)
                    : "Check that the other device is on the same network and has LocalSend open, then try again.",
                classes: ["dim-label"]),
            retryButton)

        // A device's address, always there: discovery is blocked on many networks.
        let addressSection = Widgets.vertical(spacing: 6)
        address = gtk_entry_new()!
        gtk_widget_set_hexpand(address, 1)
        gtk_entry_set_placeholder_text(cg_entry(address), "192.168.1.20")
        gtk_entry_set_input_purpose(cg_entry(address), GTK_INPUT_PURPOSE_URL)
        cg_set_accessible_label(address, "Device address")
        // A device given ahead (the caller's `to`) is there to send to with one press.
        if let preset = field.defaultValue?.text, field.isPreset, !preset.isEmpty {
            gtk_editable_set_text(cg_editable(address), preset)
        }
        let sendAction = ActionRelay()
        let sendButton = Widgets.button("Send") { sendAction.run() }
        let addressRow = Widgets.horizontal(spacing: 0)
        gtk_widget_add_css_class(addressRow, "linked")
        Widgets.append(addressRow, address, sendButton)
        addressProblem = Widgets.label("", classes: ["error", "caption"], wraps: true)
        Widgets.show(addressProblem, false)
        Widgets.append(
            addressSection, Widgets.label("Send to an Address", classes: ["heading"]), addressRow,
            Widgets.label(
                "Type the address of a device running LocalSend, such as 192.168.1.20.", classes: ["dim-label", "caption"],
                wraps: true),
            addressProblem)

        Widgets.append(page, searching, deviceSection, nothingFound, addressSection)
        let (column, backRelay, cancelRelay) = LeavingButtons.column(scrolling: page, canGoBack: back != nil)
        widget = column

        retryAction.action = { [weak self] in self?.searchAgain() }
        sendAction.action = { [weak self] in self?.sendToAddress() }
        backRelay.action = { [weak self] in self?.back() }
        cancelRelay.action = { [weak self] in self?.cancel() }
        Signals.connect(address, "activate") { [weak self] in self?.sendToAddress() }
        Signals.connect(address, "changed") { [weak self] in
            guard let self else { return }
            Widgets.show(self.addressProblem, false)
        }
        devices.onPick = { [weak self] option in self?.send(to: .choice(option.id)) }

        for option in options.current { devices.add(option) }
        options.observe { [weak self] option in
            guard let self, !self.addingTypedAddress else { return }
            let wasEmpty = self.devices.isEmpty
            self.devices.add(option)
            self.showState()
            // The first device to answer takes the focus from an address not typed yet, so
            // Enter sends to it; an address being typed keeps it.
            if wasEmpty, self.addressHasFocus,
                String(cString: gtk_editable_get_text(cg_editable(self.address))).isEmpty
            {
                self.devices.focusFirst()
            }
        }
        startSearch()
    }

    /// True when the focus is in the address entry (on the text inside it, which is what
    /// takes the focus of an entry).
    private var addressHasFocus: Bool {
        guard let root = gtk_widget_get_root(address), let focused = gtk_root_get_focus(root) else { return false }
        return focused == address || gtk_widget_is_ancestor(focused, address) != 0
    }

    /// A centred sentence that wraps: centred lines too, not only a centred block.
    private static func centered(_ text: String, classes: [String]) -> Widget {
        let label = Widgets.label(text, classes: classes, wraps: true, centered: true)
        gtk_label_set_justify(cg_label(label), GTK_JUSTIFY_CENTER)
        return label
    }

    // MARK: The steps of a search

    /// Starts the search period (when the options come from a search): searching until it ends.
    private func startSearch() {
        searchNumber += 1
        guard let period = options.searchPeriod else {
            isSearching = false
            return showState()
        }
        isSearching = true
        showState()
        let number = searchNumber
        _ = Signals.every(milliseconds: UInt32(max(0, period) * 1000)) { [weak self] in
            guard let self, self.searchNumber == number else { return false }
            self.isSearching = false
            self.showState()
            return false
        }
    }

    /// Retry: the activity asks again and the page searches for another period.
    private func searchAgain() {
        guard let again = options.searchAgain else { return }
        again()
        startSearch()
        gtk_widget_grab_focus(address)
    }

    /// Searching, the list, or nothing found: exactly one of them shows.
    private func showState() {
        let hasDevices = !devices.isEmpty
        Self.show(searching, !hasDevices && isSearching)
        Self.show(devicesHeading, hasDevices)
        Widgets.show(headingSpinner, isSearching)
        if isSearching { gtk_spinner_start(cg_spinner(headingSpinner)) } else { gtk_spinner_stop(cg_spinner(headingSpinner)) }
        Self.show(nothingFound, !hasDevices && !isSearching)
        Widgets.show(retryButton, options.searchAgain != nil)
    }

    /// Shows or hides a box and its children, so "No devices found" in a hidden box is hidden
    /// itself: AT-SPI's "visible" state may follow each widget's own flag rather than its box's
    /// (not checked on GTK 4.8; hiding both costs nothing).
    private static func show(_ box: Widget, _ visible: Bool) {
        Widgets.show(box, visible)
        var child = gtk_widget_get_first_child(box)
        while let widget = child {
            Widgets.show(widget, visible)
            child = gtk_widget_get_next_sibling(widget)
        }
    }

    // MARK: Sending

    /// The typed address, made a device option of the field (which checks it), then sent to.
    private func sendToAddress() {
        let typed = String(cString: gtk_editable_get_text(cg_editable(address))).trimmingCharacters(in: .whitespaces)
        guard !typed.isEmpty else {
            return showAddressProblem("Type the device's address first, such as 192.168.1.20.")
        }
        addingTypedAddress = true
        let value = deviceField.value(fromText: typed)
        addingTypedAddress = false
        guard let value else {
            return showAddressProblem("\(typed) is not an address. Type one such as 192.168.1.20.")
        }
        if let problem = send(to: value) { showAddressProblem(Sentence.of(problem)) }
    }

    /// Sends to the device `value` names, the other fields keeping their values (a PIN given
    /// ahead); returns the problem with the device, if the activity found one.
    @discardableResult
    private func send(to value: InterfaceValue) -> String? {
        guard !finished else { return nil }
        var values: InterfaceValues = [:]
        for field in interface.fields { values[field.id] = field.defaultValue }
        values[deviceField.id] = value
        let problems = submit(values)
        if problems.isEmpty {
            finished = true
            return nil
        }
        return problems[deviceField.id] ?? problems.sorted { $0.key < $1.key }.first?.value
    }

    private func showAddressProblem(_ message: String) {
        Widgets.setText(addressProblem, message)
        Widgets.show(addressProblem, true)
        gtk_widget_grab_focus(address)
    }

    // MARK: Leaving

    /// The first device when there is one, else the address entry.
    func focus() {
        let typed = String(cString: gtk_editable_get_text(cg_editable(address)))
        if !typed.isEmpty || !devices.focusFirst() { gtk_widget_grab_focus(address) }
    }

    /// Cancels the share (Cancel, Escape, the close button).
    func cancel() {
        guard !finished else { return }
        finished = true
        searchNumber += 1
        cancelAction()
    }

    private func back() {
        guard !finished, let backAction else { return }
        finished = true
        searchNumber += 1
        backAction()
    }
}
