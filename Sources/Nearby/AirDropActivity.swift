import Foundation
import ShareSheet
import ShareSheetSystem
import UniformTypes

/// AirDrop on Linux: sends the items to a phone or desktop nearby that runs LocalSend.
///
/// Discovery starts when the activity is picked and fills the interface's device field as
/// devices answer; a device can also be given as `HOST[:PORT]` (`--to`), which is what works
/// where multicast is blocked. Text goes as a LocalSend text message, everything else as files.
/// A receiver that declines finishes the activity with `false`. A device that was named but is
/// not there now (not found in time, or nothing answers at its address) does not fail the
/// share: it is queued with its items (`AirDropQueueing`), finished as `.queued`, and sent when
/// the device is back (`AirDropQueueSender`).
///
/// A device sent to is noted in `KnownDevices`. A discovered device that shows a pinned
/// device's alias with another certificate is flagged in the device list, and an alias that a
/// pinned device has reaches only that device.
public final class AirDropActivity: BuiltInActivity, InterruptibleActivity, RecipientReporting {
    private let givenDirectories: XDGDirectories?
    private let givenEnvironment: [String: String]?
    private var payloads: [NearbyPayload] = []
    /// LocalSend `preview`s lined up with `payloads`.
    private var previews: [String?] = []
    private var preparationError: ShareError?
    private var builtInterface: ActivityInterface?
    private var discovery: NearbyDiscovery?
    private let running = Locked<NearbySender?>(nil)
    private let stopped = Locked(false)
    /// A cancel that keeps work says which files reached the device (`keptWork`).
    private var keepsWork = false
    /// True from the send's start until `finish`.
    private var isSending = false
    /// What a cancelled send delivered, once it has stopped.
    private var kept: KeptWork?
    private var stopWaiters: [CheckedContinuation<Void, Never>] = []
    /// The known devices, read when the interface is made: what flags impostors and what an
    /// alias must match.
    private var knownDevices = KnownDevices()
    /// The device the last send reached, or the one a queued share waits for (when known).
    public private(set) var recipients: [ShareRecipient] = []

    /// Makes the activity.
    /// - Parameters:
    ///   - descriptor: the registry's description of the AirDrop built-in; the catalog's by default.
    ///   - directories: where the configuration and the device identity are; those of the
    ///     activity's `hostEnvironment` when nil.
    ///   - environment: read for `SHARESHEET_NEARBY=off`; the `hostEnvironment`'s when nil.
    public init(
        descriptor: BuiltInActivityDescriptor = BuiltInActivityDescriptor.catalog.first { $0.type == .airDrop }!,
        directories: XDGDirectories? = nil,
        environment: [String: String]? = nil
    ) {
        givenDirectories = directories
        givenEnvironment = environment
        super.init(descriptor: descriptor)
    }

    /// LocalSend offers carry a small `preview`: the sources are asked for one this size.
    public override var thumbnailSize: CGSize? { CGSize(width: 128, height: 128) }

    public override func prepare(withActivityItems activityItems: [Any]) {
        do {
            (payloads, previews) = try Self.outgoing(for: activityItems, thumbnails: context.thumbnails)
        } catch let error as ShareError {
            preparationError = error
        } catch {
            preparationError = ShareError(.badData, "AirDrop: \(error)")
        }
    }

    /// A device given ahead (`--to`) as an address whose port cannot be one: a usage error
    /// naming it, instead of a search for a device of that name.
    private var presetProblem: ShareError? {
        for target in presetTargets() {
            if let problem = DirectAddress.portProblem(target) {
                return ShareError(.usage, "AirDrop: the device \(target) given ahead: \(problem)", setting: .init("to"), fix: .chooseDevice)
            }
        }
        return nil
    }

    /// The fields, and how the receiver is found (`scan=subnet`) and checked (`fingerprint`).
    public override var presetKeys: Set<String> { ["to", "pin", "scan", "fingerprint"] }

    public override var activityInterface: ActivityInterface? {
        if presetProblem != nil { return nil }
        if let builtInterface { return builtInterface }
        let interface = makeInterface()
        builtInterface = interface
        return interface
    }

    public override func perform() {
        if let problem = presetProblem { activityDidFail(problem) } else { super.perform() }
    }

    public override func cancel() {
        stopped.withLock { $0 = true }
        discovery?.stop()
        running.withLock { $0 }?.cancel()
    }

    // MARK: The interface

    private func makeInterface() -> ActivityInterface {
        let options = ChoiceOptions(streaming: presetTargets().map {
            ChoiceOptions.Option(id: $0, title: $0, detail: "given ahead", iconName: "network-wired")
        })
        // "a device nearby, or HOST[:PORT]": an address typed in the sheet is a device too.
        options.optionForTypedText = { text in
            guard DirectAddress.parse(text) != nil || DirectAddress.portProblem(text) != nil else { return nil }
            return ChoiceOptions.Option(id: text, title: text, detail: "typed address", iconName: "network-wired")
        }
        var message = "Looking for devices running LocalSend nearby…"
        let (loaded, identity) = loadSettingsAndIdentity()
        let known = KnownDevices.load(directories: directories)
        for warning in known.warnings { hostEnvironment.steps?.say(warning) }
        knownDevices = known
        if var settings = loaded, let identity, preparationError == nil {
            // The legacy subnet scan asks every address nearby: only when explicitly asked for.
            if context.presetValues["scan"]?.text == "subnet" {
                settings.subnetScan = true
                loadedSettings = settings
            }
            if settings.discoveryEnabled {
                let discovery = NearbyDiscovery(settings: settings, identity: identity) { device in
                    Task { @MainActor in options.append(Self.option(for: device, known: known)) }
                }
                do {
                    try discovery.start()
                    self.discovery = discovery
                    // A window says "no devices found" once the search has had as long as a
                    // device named ahead is waited for, and its Retry announces us again.
                    options.searchPeriod = settings.discoveryTimeout
                    options.searchAgain = { [weak discovery] in discovery?.announce() }
                } catch {
                    message = "Discovery is not possible here (\(error)). Type the address of a device running LocalSend, such as 192.168.1.20."
                }
            } else {
                message = "Discovery is switched off. Type the address of a device running LocalSend, such as 192.168.1.20."
            }
        }
        return ActivityInterface(
            title: "AirDrop", message: message, fields: Self.fields(devices: options), submitTitle: "Send",
            validate: { values in
                guard let target = values["to"]?.text, let problem = DirectAddress.portProblem(target) else { return [:] }
                return ["to": problem]
            },
            onCancel: { [weak self] in
                // Back to the sheet cancels the interface too: a later pick searches afresh.
                self?.discovery?.stop()
                self?.discovery = nil
                self?.builtInterface = nil
            },
            onSubmit: { [weak self] values in self?.submit(values) })
    }

    /// The device, filled as `devices` arrive, and the PIN a receiver may ask for.
    private static func fields(devices: ChoiceOptions) -> [InterfaceField] {
        [
            InterfaceField(
                id: "to", label: "Device", kind: .choice(devices), isRequired: true,
                help: "a device nearby, or the address of one running LocalSend, such as 192.168.1.20"),
            InterfaceField(
                id: "pin", label: "PIN", kind: .text, help: "only when the receiver asks for one", isAdvanced: true,
                isSecret: true),
        ]
    }

    /// The fields without a device list: nothing is discovered for a help page.
    public override var declaredFields: [InterfaceField] { Self.fields(devices: ChoiceOptions(streaming: [])) }

    /// LocalSend on the local network, or only typed addresses when discovery is off; the
    /// identity is not made and nothing is sent.
    public override var route: ActivityRoute? {
        let environment = givenEnvironment ?? hostEnvironment.variables
        let directories = givenDirectories ?? XDGDirectories(environment: environment)
        let configuration: Configuration
        do {
            configuration = try Configuration.load(from: directories)
        } catch {
            return ActivityRoute("cannot send: \((error as? ShareError)?.message ?? "\(error)")")
        }
        let settings = NearbySettings(configuration: configuration, environment: environment)
        let keys = [ActivityRoute.Setting(group: "nearby", key: "enabled"), ActivityRoute.Setting(group: "nearby", key: "alias")]
        guard settings.discoveryEnabled else {
            return ActivityRoute(
                "discovery is off: sends only to a LocalSend device given as HOST[:PORT]", settings: keys)
        }
        var summary = "sends to LocalSend devices on the local network, as '\(settings.alias)'"
        if settings.subnetScan { summary += " (also asking every address of the subnet)" }
        return ActivityRoute(summary, settings: keys)
    }

    /// The `--to` values, one option each, so scripted use can name a device before discovery
    /// has found it.
    private func presetTargets() -> [String] {
        guard let value = context.presetValues["to"] else { return [] }
        switch value {
        case .text(let text): return text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        case .list(let list): return list
        case .choice(let id): return [id]
        default: return []
        }
    }

    private var settingsProblem: ShareError?
    private var loadedSettings: NearbySettings?
    private var loadedIdentity: NearbyIdentity?

    private func loadSettingsAndIdentity() -> (NearbySettings?, NearbyIdentity?) {
        let environment = givenEnvironment ?? hostEnvironment.variables
        let directories = givenDirectories ?? XDGDirectories(environment: environment)
        do {
            let configuration = try Configuration.load(from: directories)
            let settings = NearbySettings(configuration: configuration, environment: environment)
            let identity = try NearbyIdentity.loadOrCreate(in: NearbyIdentity.folder(directories))
            loadedSettings = settings
            loadedIdentity = identity
            return (settings, identity)
        } catch let error as ShareError {
            settingsProblem = error
        } catch {
            settingsProblem = ShareError(.ioError, "AirDrop: \(error)")
        }
        return (nil, nil)
    }

    /// A discovered device as the device list shows it: its model, type and address; "pinned"
    /// for a pinned one; and for one that shows a pinned alias with another certificate, a
    /// warning in place of the details.
    static func option(for device: NearbyDevice, known: KnownDevices) -> ChoiceOptions.Option {
        if known.isImpostor(alias: device.info.alias, fingerprint: device.fingerprint) {
            return ChoiceOptions.Option(
                id: device.fingerprint, title: device.info.alias,
                detail: "not your pinned \(device.info.alias): another certificate · \(device.host)", iconName: "dialog-warning",
                isWarning: true)
        }
        var details = [device.info.deviceModel, device.info.deviceType, device.host].compactMap { $0 }.filter { !$0.isEmpty }
        if known.device(fingerprint: device.fingerprint)?.pinned == true { details.insert("pinned", at: 0) }
        let (kind, icon) = Self.kind(of: device.info.deviceType)
        return ChoiceOptions.Option(
            id: device.fingerprint, title: device.info.alias, detail: details.joined(separator: " · "), iconName: icon, kind: kind)
    }

    /// LocalSend's device type (mobile, desktop, web, headless, server) as a word and an icon;
    /// a device that does not say is most likely a computer running the desktop app.
    static func kind(of deviceType: String?) -> (word: String, icon: String) {
        switch deviceType {
        case "mobile": return ("Phone", "phone")
        case "web": return ("Web browser", "web-browser")
        case "headless", "server": return ("Server", "network-server")
        default: return ("Computer", "computer")
        }
    }

    /// Where the configuration, the identity and the known devices are.
    private var directories: XDGDirectories {
        givenDirectories ?? XDGDirectories(environment: givenEnvironment ?? hostEnvironment.variables)
    }

    // MARK: Sending

    private func submit(_ values: InterfaceValues) {
        if let problem = preparationError ?? settingsProblem { return activityDidFail(problem) }
        guard let settings = loadedSettings, let identity = loadedIdentity else {
            return activityDidFail(ShareError(.ioError, "AirDrop: no device identity"))
        }
        guard let target = values["to"]?.text, !target.isEmpty else {
            return activityDidFail(ShareError(.usage, "AirDrop: no device chosen", setting: .init("to"), fix: .chooseDevice))
        }
        let pin = values["pin"]?.text
        let expectedFingerprint = context.presetValues["fingerprint"]?.text.uppercased()
        let payloads = self.payloads
        let previews = self.previews
        let discovery = self.discovery
        let running = self.running
        let stopped = self.stopped
        let progress = self.progress
        progress.kind = .file  // counted in bytes of the files sent: the command shows size, rate and time left
        progress.isUpload = true  // then the receiver's answer: the command says it waits for it
        let steps = hostEnvironment.steps
        let directories = self.directories
        let queue = ShareQueue(directories: directories)
        let known = knownDevices
        recipients = []
        isSending = true
        let thread = Thread { [weak self] in
            var outcome: Result<SendOutcome, ShareError>
            var reached: NearbyDevice?
            var delivered: (files: [String], of: Int)?
            var waitsFor: ShareRecipient?
            do {
                let device = try DeviceResolution.resolve(
                    target, discovery: discovery, settings: settings, identity: identity, expectedFingerprint: expectedFingerprint,
                    known: known, isCancelled: { stopped.withLock { $0 } })
                reached = device
                discovery?.stop()
                let name = "'\(device.info.alias)' at \(DeviceResolution.address(of: device))"
                steps?.say("AirDrop: sending \(payloads.count) item(s) to \(name) (fingerprint \(device.info.fingerprint))")
                let sender = NearbySender(device: device, identity: identity, settings: settings, progress: progress)
                running.withLock { $0 = sender }
                if stopped.withLock({ $0 }) { sender.cancel() }
                defer { delivered = (sender.deliveredFiles, payloads.count) }
                do {
                    let result = try sender.send(payloads, previews: previews, pin: pin)
                    if case .delivered = result { Self.note(device, in: directories, steps: steps) }
                    switch result {
                    case .delivered(let files) where files.isEmpty: steps?.say("AirDrop: \(name) showed the text")
                    case .delivered(let files): steps?.say("AirDrop: sent \(files.count) file(s) to \(name)")
                    case .declined: steps?.say("AirDrop: \(name) declined")
                    }
                    outcome = .success(.sent(result))
                } catch let error as ShareError where error.kind == .unavailable && !sender.hasConnected {
                    // Found, then gone before the transfer request reached it: nothing arrived.
                    throw DeviceNotReached(error: error)
                }
            } catch let notReached as DeviceNotReached {
                outcome = .failure(notReached.error)
                if !stopped.withLock({ $0 }) {
                    steps?.say("AirDrop: \(notReached.error.message); queueing the share")
                    do {
                        // An alias a pinned device has waits for that device's fingerprint.
                        let fingerprint = notReached.fingerprint ?? expectedFingerprint
                        let queued = try AirDropQueueing.queue(
                            payloads, target: target, device: reached, expectedFingerprint: fingerprint,
                            error: notReached.error, in: queue)
                        outcome = .success(.queued(queued))
                        waitsFor = Self.recipient(waitingFor: target, device: reached, fingerprint: fingerprint, known: known)
                    } catch {
                        // Said with why it failed: nothing waits for the device.
                        let message = (error as? ShareError)?.message ?? "\(error)"
                        outcome = .failure(
                            ShareError(.ioError, "\(notReached.error.message); it could not be kept to send later: \(message)"))
                    }
                }
            } catch let error as ShareError {
                outcome = .failure(error)
            } catch {
                outcome = .failure(ShareError(.ioError, "AirDrop: \(error)"))
            }
            discovery?.stop()
            let address = reached.map(DeviceResolution.address(of:))
            let alias = reached?.info.alias
            let deliveredBeforeStop = delivered
            let recipient = waitsFor ?? reached.map { ShareRecipient(id: $0.fingerprint, name: $0.info.alias) }
            Task { @MainActor in
                if case .success = outcome, let recipient { self?.recipients = [recipient] }
                self?.finish(outcome, to: address)
                self?.stoppedSending(delivered: deliveredBeforeStop, to: alias ?? address)
            }
        }
        thread.name = "nearby-send"
        thread.start()
    }

    /// Notes the device that got the items in the known devices; a store that cannot be
    /// written does not fail a share that arrived, and is said as a step.
    private nonisolated static func note(_ device: NearbyDevice, in directories: XDGDirectories, steps: StepLog?) {
        do {
            for warning in try KnownDevices.note(device, directories: directories) { steps?.say(warning) }
        } catch {
            steps?.say("AirDrop: \(device.info.alias) was not noted among the known devices: \(KnownDevices.words(error))")
        }
    }

    /// Whom a queued share waits for, for the history: the device discovery had found, else
    /// the fingerprint it must have, named by its known alias (or by the alias given); nil for
    /// a name or address with no fingerprint.
    private nonisolated static func recipient(
        waitingFor target: String, device: NearbyDevice?, fingerprint: String?, known: KnownDevices
    ) -> ShareRecipient? {
        if let device { return ShareRecipient(id: device.fingerprint, name: device.info.alias) }
        guard let fingerprint, !fingerprint.isEmpty else { return nil }
        let name = known.alias(of: fingerprint) ?? (AirDropQueueing.looksLikeFingerprint(target) || DirectAddress.parse(target) != nil ? nil : target)
        return ShareRecipient(id: fingerprint, name: name)
    }

    // MARK: Keeping work

    /// A cancel after this says which files had reached the device: they stay there.
    public func keepWorkWhenCancelled() { keepsWork = true }

    /// Once the send has stopped: the files that reached the device before the cancel, or nil
    /// when none did (or nothing was being sent).
    public func keptWork() async -> KeptWork? {
        if isSending { await withCheckedContinuation { stopWaiters.append($0) } }
        return kept
    }

    private func stoppedSending(delivered: (files: [String], of: Int)?, to device: String?) {
        isSending = false
        if keepsWork, let delivered, !delivered.files.isEmpty, delivered.files.count < delivered.of, let device {
            let what = delivered.files.count == 1 ? delivered.files[0] : "\(delivered.files.count) files"
            kept = KeptWork(what: "\(what) (\(delivered.files.count) of \(delivered.of))", location: device)
        }
        let waiting = stopWaiters
        stopWaiters = []
        for waiter in waiting { waiter.resume() }
    }

    /// How a send that threw nothing ended: sent (or declined), or queued for later.
    private enum SendOutcome: Sendable {
        case sent(NearbySendResult)
        case queued(AirDropQueueing.Queued)
    }

    private func finish(_ outcome: Result<SendOutcome, ShareError>, to address: String?) {
        switch outcome {
        case .success(.sent(.delivered(let files))):
            returnedItems = files
            disposition = .sent
            location = address
            activityDidFinish(true)
        case .success(.sent(.declined)):
            activityDidFinish(false)
        case .success(.queued(let queued)):
            // Like mail without a server: kept, said in words, and sent when it can go.
            returnedItems = [queued.entry.folder]
            disposition = .queued
            location = queued.entry.folder.path
            fallback = ActivityFallback(message: queued.message, fix: .flushOutbox)
            activityDidFinish(true)
        case .failure(let error) where error.kind == .cancelled:
            activityDidFinish(false)
        case .failure(let error):
            activityDidFail(error)
        }
    }

    // MARK: Items

    /// What the items become on the wire, with the `preview` each payload carries: the item's
    /// thumbnail (`thumbnails` is lined up with `items`, as `context.thumbnails` is) when the item
    /// becomes one payload; an array item's thumbnail stands for none of its parts.
    static func outgoing(for items: [Any], thumbnails: [Image?]) throws -> (payloads: [NearbyPayload], previews: [String?]) {
        var payloads: [NearbyPayload] = []
        var previews: [String?] = []
        for (index, item) in items.enumerated() {
            let made = try Self.payloads(for: item)
            let thumbnail = index < thumbnails.count ? thumbnails[index] : nil
            let preview = made.count == 1 ? thumbnail.flatMap(Self.preview(of:)) : nil
            payloads += made
            previews += made.map { _ in preview }
        }
        return (payloads, previews)
    }

    /// The largest encoded thumbnail sent as a preview; a bigger one is no thumbnail, and it
    /// would travel inside the `prepare-upload` JSON.
    static let maximumPreviewBytes = 256 * 1024

    /// A thumbnail as LocalSend's `preview`: the protocol types the field as a nullable string
    /// ("preview data") and defines no encoding for images, so it travels as an RFC 2397 `data:`
    /// URL of the image's own encoding, which web and app receivers can show as it is.
    static func preview(of thumbnail: Image) -> String? {
        guard let data = thumbnail.encodedData, !data.isEmpty, data.count <= maximumPreviewBytes,
            let mimeType = thumbnail.type.preferredMIMEType
        else { return nil }
        return "data:\(mimeType);base64,\(data.base64EncodedString())"
    }

    /// What an item becomes on the wire.
    static func payloads(for item: Any) throws -> [NearbyPayload] {
        switch item {
        case let text as String: return [.text(text)]
        case let text as Substring: return [.text(String(text))]
        case let url as URL:
            if url.isFileURL { return [.file(url)] }
            return [.text(url.absoluteString)]
        case let dataItem as DataItem:
            return [.data(dataItem.data, filename: dataItem.filename, mimeType: dataItem.type.preferredMIMEType ?? "application/octet-stream")]
        case let attributed as AttributedString: return [.text(String(attributed.characters))]
        case let image as Image:
            if let fileURL = image.fileURL { return [.file(fileURL)] }
            guard let data = image.encodedData else { throw ShareError(.badData, "AirDrop: an image has no bytes") }
            let ext = image.type.preferredFilenameExtension ?? "img"
            return [.data(data, filename: "Image.\(ext)", mimeType: image.type.preferredMIMEType ?? "application/octet-stream")]
        case let asset as Asset: return [.file(asset.fileURL)]
        case let dictionary as [String: Any]:
            if JSONSerialization.isValidJSONObject(dictionary),
                let data = try? JSONSerialization.data(withJSONObject: dictionary, options: [.sortedKeys])
            {
                return [.data(data, filename: "Items.json", mimeType: "application/json")]
            }
            return [.text(String(describing: dictionary))]
        case let array as [Any]: return try array.flatMap(payloads(for:))
        case let object as NSAttributedString: return [.text(object.string)]
        default:
            throw ShareError(.badData, "AirDrop: \(ItemKind.of(item)) cannot be sent")
        }
    }
}
