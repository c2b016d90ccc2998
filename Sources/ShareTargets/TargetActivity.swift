import Foundation
import ShareSheet
import ShareSheetSystem

/// A share target on the sheet: offered for the items its entry accepts, within its count
/// limits, unless the person turned it off; performed by calling its D-Bus name or launching
/// its `Exec=` line.
///
/// The catalog keeps one per installed target, which every sheet shares (an
/// `ActivityPrototype`): a sheet with two hundred targets makes none, and the one picked makes
/// a fresh activity for its run.
public final class TargetActivity: BuiltInActivity, ActivityIconNaming, ActivityPrototype {
    /// What the entry says.
    public let target: ShareTarget
    /// The settings of a run.
    private let settings: TargetSettings
    /// A prototype's: the settings of the sheet being built, which every target of its catalog
    /// shares (read once per sheet).
    let sheetSettings: SheetSettings?
    private var items: [TargetItem] = []
    private var work: Task<Void, Never>?
    private let cancellable = TargetCancellation()
    /// The verdict for the sheet it was last worked out for: the sheet asks `canPerform` and
    /// then, for a target it does not offer, `unavailableReason` about the same items.
    private var lastVerdict: (sheet: SheetKinds, reason: Unavailability?)?

    /// Makes the activity; `descriptor` is the catalog's for `target` (an unavailable reason
    /// says what it takes with the descriptor's acceptance summary).
    public convenience init(target: ShareTarget, descriptor: BuiltInActivityDescriptor, settings: TargetSettings) {
        self.init(target: target, descriptor: descriptor, settings: settings, sheetSettings: nil)
    }

    init(target: ShareTarget, descriptor: BuiltInActivityDescriptor, settings: TargetSettings, sheetSettings: SheetSettings?) {
        self.target = target
        self.settings = settings
        self.sheetSettings = sheetSettings
        super.init(descriptor: descriptor)
    }

    /// A fresh activity for a run, with the settings of the sheet it was picked on.
    public func makeActivity() -> Activity {
        TargetActivity(target: target, descriptor: descriptor, settings: currentSettings)
    }

    /// The settings that apply now: the sheet's, for a prototype.
    private var currentSettings: TargetSettings { sheetSettings?.settings ?? settings }

    /// True when the entry says the target sends items over the network.
    public override var sendsItemsAway: Bool { target.sendsItemsAway }
    public override var needsWidelyReadImages: Bool { false }
    public override var imageSizeSettingGroup: String? { nil }

    /// The entry's icon; a generic application icon when it names none.
    public var iconName: String { target.iconName ?? "application-x-executable" }

    // MARK: Offering

    public override func canPerform(withActivityItems activityItems: [Any]) -> Bool {
        verdict(for: activityItems) == nil
    }

    public override func canPerform(withItemKinds kinds: [ItemKind]) -> Bool {
        verdict(for: SheetKinds(kinds)) == nil
    }

    public override func unavailableReason(forActivityItems activityItems: [Any]) -> String? {
        verdict(for: activityItems)?.reason
    }

    public override func unavailableReason(forItemKinds kinds: [ItemKind]) -> String? {
        verdict(for: SheetKinds(kinds))?.reason
    }

    /// Why it is not offered, with how to turn it back on when the person turned it off.
    public override func unavailability(forActivityItems activityItems: [Any]) -> Unavailability? {
        verdict(for: activityItems)
    }

    /// The application the desktop entry reaches, and how.
    public override var route: ActivityRoute? {
        switch target.reach {
        case .dbus(let name)?: return ActivityRoute("hands the items to \(target.title) over D-Bus (\(name))")
        case .exec(let commandLine)?: return ActivityRoute("hands the items to \(target.title) by running \(commandLine)")
        case nil: return ActivityRoute(target.problem.map { "cannot share: \($0)" } ?? "hands the items to \(target.title)")
        }
    }

    public override func explanation(forActivityItems activityItems: [Any]) -> [ExplanationLine] {
        var lines: [ExplanationLine] = ["entry: \(target.path)"]
        switch target.reach {
        case .dbus(let name)?:
            lines.append("reached: Share on org.sharesheet.Target1 at \(name) \(ShareTarget.objectPath(forBusName: name))")
            let timeout = TargetBusCall.seconds(currentSettings.timeout)
            lines.append(ExplanationLine("timeout: \(timeout)", setting: TargetSettings.timeoutSetting))
        case .exec(let commandLine)?: lines.append("reached: launches \(commandLine) (the outcome is handed-off)")
        case nil: break
        }
        if let accepts = target.accepts { lines.append("takes: \(accepts.summary)") }
        return lines
    }

    /// Why the target is not offered for `items`, or nil when it is.
    private func verdict(for items: [Any]) -> Unavailability? {
        verdict(for: SheetKinds(itemKinds(of: items)))
    }

    /// Why the target is not offered on a sheet of these kinds, or nil when it is.
    func verdict(for sheet: SheetKinds) -> Unavailability? {
        if let lastVerdict, lastVerdict.sheet === sheet { return lastVerdict.reason }
        let reason = decide(for: sheet)
        lastVerdict = (sheet, reason)
        return reason
    }

    private func decide(for sheet: SheetKinds) -> Unavailability? {
        // Nothing is turned off on most systems: then no name is made and hashed per target.
        let disabled = currentSettings.disabled
        if !disabled.isEmpty, disabled.contains(target.name) {
            return Unavailability(
                "turned off", setting: ShareError.Setting(group: TargetSettings.group, target.name), fix: .enableTarget)
        }
        if let problem = target.problem { return Unavailability(problem) }
        guard let accepts = target.accepts else { return Unavailability("its entry is broken") }
        // Two hundred targets mostly take the same few lists: each list is decided once per
        // sheet. The descriptor's summary names the list (every pattern and limit).
        let summary = descriptor.acceptance.summary
        return sheet.verdict(accepting: summary) { Self.verdict(of: accepts, summary: summary, for: sheet) }
            .map { Unavailability($0) }
    }

    /// Why a target that takes `accepts` is not offered on `sheet`, or nil when it is.
    private static func verdict(of accepts: TargetAccepts, summary: String, for sheet: SheetKinds) -> String? {
        var accepted = [Bool](repeating: false, count: sheet.kinds.count)
        for rule in accepts.rules {
            let matches = sheet.matches(rule)
            var count = 0
            for index in matches.indices where matches[index] {
                accepted[index] = true
                count += sheet.kinds[index].count
            }
            if count > 0, !rule.allows(count) {
                return "it takes \(rule.summary), and got \(count) \(rule.match.noun)"
            }
        }
        if !accepted.contains(true) {
            // The descriptor keeps `accepts.summary`, made once when the catalog was read.
            return "it takes \(summary), and got \(sheet.description)"
        }
        return nil
    }

    // MARK: Running

    public override func prepare(withActivityItems activityItems: [Any]) {
        items = activityItems.compactMap(TargetItem.from)
    }

    public override func perform() {
        let items = self.items
        let target = self.target
        let host = hostEnvironment
        switch target.reach {
        case .dbus(let name)?:
            // The item source's subject, else the one the person gave (`--subject`, a form).
            let given = context.presetValues["subject"]?.text
            let call = TargetBusCall(
                title: target.title, busName: name, items: items,
                subject: context.subject ?? (given?.isEmpty == false ? given : nil), timeout: settings.timeout,
                busAddress: host["DBUS_SESSION_BUS_ADDRESS"], temporaryFolder: host["TMPDIR"] ?? "/tmp")
            let cancellable = self.cancellable
            let queue = ShareQueue(directories: host.directories)
            work = Task { [weak self] in
                let outcome = await TargetBusCall.offThePool { Self.callOrQueue(call, target: target, queue: queue, cancellable: cancellable) }
                switch outcome {
                case .success(.replied(let reply)): self?.finish(.success(reply))
                case .success(.queued(let entry)): self?.finishQueued(entry, items: items)
                case .failure(let error): self?.finish(.failure(error))
                }
            }
        case .exec?:
            let folder = host.directories.cacheHome.appendingPathComponent("sharesheet/targets", isDirectory: true)
            work = Task { [weak self] in
                let outcome = await TargetBusCall.offThePool {
                    Result { try TargetLaunch.launch(entry: target.path, title: target.title, items: items, handOffFolder: folder) }
                }
                self?.finish(outcome)
            }
        case nil:
            activityDidFail(ShareError(.unavailable, "\(target.title): \(target.problem ?? "its entry says no way to reach it")"))
        }
    }

    public override func cancel() {
        cancellable.cancel()
        work?.cancel()
    }

    /// What became of a call: the target's answer, or the share queued because the target was
    /// not running.
    private enum CallOutcome: Sendable {
        case replied(TargetReply)
        case queued(ShareQueue.Entry)
    }

    /// Calls the target; when its service is not there to start, queues the share instead
    /// (SPEC §14). When even queueing fails, the share fails with why the target was not reached.
    private nonisolated static func callOrQueue(
        _ call: TargetBusCall, target: ShareTarget, queue: ShareQueue, cancellable: TargetCancellation
    ) -> Result<CallOutcome, any Error> {
        do {
            return .success(.replied(try call.perform(cancellable: cancellable)))
        } catch let notRunning as TargetNotRunning {
            do {
                return .success(.queued(try TargetQueueing.queue(call, target: target, in: queue)))
            } catch {
                let reason = (error as? ShareError)?.message ?? "\(error)"
                return .failure(ShareError(notRunning.error.kind, "\(notRunning.error.message) (and it could not wait: \(reason))"))
            }
        } catch {
            return .failure(error)
        }
    }

    /// Ends a share that waits in the queue for the target to start: queued, said in words.
    private func finishQueued(_ entry: ShareQueue.Entry, items: [TargetItem]) {
        returnedItems = [entry.share.id]
        disposition = .queued
        location = entry.folder.path
        fallback = ActivityFallback(
            message: "\(target.title) is not running; \(TargetQueueing.phrase(for: items)) will go when it starts.",
            fix: .flushOutbox)
        activityDidFinish(true)
    }

    private func finish(_ outcome: Result<TargetReply, any Error>) {
        switch outcome {
        case .success(let reply):
            if let message = reply.errorMessage {
                return activityDidFail(ShareError(.unavailable, "\(target.title): \(message)"))
            }
            disposition = reply.disposition.flatMap(ShareDisposition.init(rawValue:))
            location = reply.location
            let completed = reply.completed ?? (disposition != .cancelled && disposition != .failed)
            if completed, disposition == nil { disposition = .handedOff }
            activityDidFinish(completed)
        case .failure(let error):
            activityDidFail(error)
        }
    }
}

/// The settings of the sheet being built, which a catalog's prototypes share: one assignment
/// per sheet, not one per target.
final class SheetSettings {
    var settings = TargetSettings()
}

/// A sheet's items as a target looks at them: each distinct kind with how many items are of
/// it, and which kinds each accepted pattern matches, worked out once per sheet and shared by
/// every target on it (two hundred targets mostly accept the same few types).
final class SheetKinds {
    let kinds: [(kind: ItemKind, count: Int)]
    private var matched: [String: [Bool]] = [:]
    private var verdicts: [String: String?] = [:]

    init(_ items: [ItemKind]) {
        var kinds: [(kind: ItemKind, count: Int)] = []
        for kind in items {
            if let index = kinds.firstIndex(where: { $0.kind == kind }) {
                kinds[index].count += 1
            } else {
                kinds.append((kind, 1))
            }
        }
        self.kinds = kinds
    }

    /// True when `other` holds the same kinds, as many of each.
    func sameKinds(as other: SheetKinds) -> Bool {
        kinds.count == other.kinds.count && zip(kinds, other.kinds).allSatisfy { $0.kind == $1.kind && $0.count == $1.count }
    }

    /// For each distinct kind, whether `rule` matches it.
    func matches(_ rule: TargetAccepts.Rule) -> [Bool] {
        if let known = matched[rule.pattern] { return known }
        let made = kinds.map { rule.match.accepts($0.kind) }
        matched[rule.pattern] = made
        return made
    }

    /// The verdict for targets whose accepted list `summary` names: `make`'s, made once.
    func verdict(accepting summary: String, make: () -> String?) -> String? {
        if let known = verdicts[summary] { return known }
        let made = make()
        verdicts[summary] = .some(made)  // nil (offered) is kept too, not a removal
        return made
    }

    /// "text, 2 web links"-style words for what the sheet holds, made once per sheet: every
    /// target the sheet does not offer says it, and naming a file's kind looks its type up.
    private(set) lazy var description: String =
        kinds.map { $0.count == 1 ? $0.kind.description : "\($0.count) × \($0.kind.description)" }.joined(separator: ", ")
}
