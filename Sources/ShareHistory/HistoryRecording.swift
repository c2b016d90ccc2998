import Foundation
import ShareSheet
import ShareSheetSystem
import Sharing

/// What the front ends call when a share session ends: the history entry for its result, made
/// from what the activity was given (its presets and the person's answers), and its recording
/// as `[history]` says. The command and the D-Bus service record the same way through this.
@MainActor
public enum HistoryRecording {
    /// Records the share that `ending` finished with `result` in the history of `environment`,
    /// unless it was cancelled or `[history] enabled=false`, and tells `follower` (the
    /// suggestions' snapshots) what changed.
    /// - Returns: the warnings to say (a history file set aside, a history that could not be
    ///   written); recording never fails the share.
    @discardableResult
    public static func record(
        _ result: ShareResult, ending: ShareSession.Ending, environment: HostEnvironment, follower: (any HistoryFollowing)? = nil
    ) -> [String] {
        guard let entry = entry(for: result, ending: ending) else { return [] }
        // A file GLib cannot read was said before the share; its history setting is unknown, so nothing is written.
        guard let configuration = try? environment.loadConfiguration() else { return [] }
        do {
            let settings = try HistorySettings(configuration: configuration)
            guard settings.enabled else { return [] }
            follower?.historyWillRecord()
            let recorded = try ShareHistory(directories: environment.directories)
                .recordCountingDropped(entry, keepDays: settings.keepDays)
            follower?.historyRecorded(
                RecordedShare(
                    kinds: Set(entry.items.map(\.kind)), counts: entry.disposition != "failed", dropped: recorded.dropped))
            return recorded.warnings
        } catch {
            return ["history: the share was not recorded: \((error as? ShareError)?.message ?? "\(error)")"]
        }
    }

    /// The entry for a finished share; nil when it is not recorded: dismissed, cancelled, or
    /// interrupted (what a cancel kept is not a finished share).
    public static func entry(for result: ShareResult, ending: ShareSession.Ending, at time: Date = Date()) -> HistoryEntry? {
        guard !ending.wasCancelled, let type = result.activityType, let activity = result.activity,
            let disposition = result.disposition, disposition != .cancelled
        else { return nil }
        let controller = ending.controller
        let values = controller.presetValues.merging(controller.submittedValues) { _, submitted in submitted }
        // Whom the activity found it went to (AirDrop: the device a name or fingerprint was),
        // rather than only what it was given.
        let recipients = (ending.activity as? RecipientReporting)?.recipients ?? []
        return HistoryEntry(
            time: time, activityType: type, activity: activity,
            targets: targets(of: ActivityType(type), values: values, recipients: recipients),
            items: itemCounts(controller.sheet.itemKinds), disposition: disposition.rawValue)
    }

    /// The people, devices, applications and printers a share went to, from the values its
    /// activity was given: `to` (and `cc`, `bcc`), AirDrop's device, `printer`, `app`,
    /// `contact`, and a share target's own id. Never a subject, a body or a file name.
    /// - Parameter recipients: whom the activity says the share went to (`RecipientReporting`);
    ///   for AirDrop they name the device, by fingerprint with its alias, in place of what the
    ///   values gave (an alias alone, or a fingerprint picked in the sheet without its name).
    public static func targets(of type: ActivityType, values: InterfaceValues, recipients: [ShareRecipient] = []) -> [HistoryTarget] {
        func words(_ key: String) -> [String] {
            guard let value = values[key] else { return [] }
            let parts: [String]
            switch value {
            case .list(let list): parts = list
            default: parts = value.text.split(whereSeparator: { $0 == "," || $0 == ";" }).map(String.init)
            }
            return parts.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        var targets: [HistoryTarget] = []
        if type.rawValue.hasPrefix(shareTargetPrefix) {
            targets.append(HistoryTarget(kind: .shareTarget, value: String(type.rawValue.dropFirst(shareTargetPrefix.count))))
        }
        switch type {
        case .airDrop:
            // The device reached, else given by fingerprint with the alias it showed, or by alias or address alone.
            let to = words("to").first
            if !recipients.isEmpty {
                targets += recipients.map { HistoryTarget(kind: .device, value: $0.id, name: $0.name == $0.id ? nil : $0.name) }
            } else if let fingerprint = words("fingerprint").first {
                let name = to.flatMap { $0.caseInsensitiveCompare(fingerprint) == .orderedSame ? nil : $0 }
                targets.append(HistoryTarget(kind: .device, value: fingerprint, name: name))
            } else if let to {
                targets.append(HistoryTarget(kind: .device, value: to))
            }
        case .mail, .message:
            targets += (words("to") + words("cc") + words("bcc")).map { HistoryTarget(kind: .recipient, value: $0) }
        case .print:
            targets += words("printer").map { HistoryTarget(kind: .printer, value: $0) }
        case .openIn:
            targets += words("app").map { HistoryTarget(kind: .application, value: $0) }
        case .assignToContact:
            targets += words("contact").map { HistoryTarget(kind: .contact, value: $0) }
        default:
            break
        }
        var seen: Set<HistoryTarget> = []
        return targets.filter { seen.insert($0).inserted }
    }

    /// The activity type prefix of share targets (ShareTargets' `ShareTarget.typePrefix`, which
    /// this module does not link).
    static let shareTargetPrefix = "org.sharesheet.target."

    /// How many items of each kind, in the order the kinds first appear.
    public static func itemCounts(_ kinds: [ItemKind]) -> [HistoryEntry.ItemCount] {
        var counts: [HistoryEntry.ItemCount] = []
        for kind in kinds.map(historyKind) {
            if let index = counts.firstIndex(where: { $0.kind == kind }) {
                counts[index].count += 1
            } else {
                counts.append(HistoryEntry.ItemCount(kind: kind, count: 1))
            }
        }
        return counts
    }

    /// The five kinds the history and the ranking tell apart: `image`, `movie`, `text`, `link`, `file`.
    public static func historyKind(_ kind: ItemKind) -> String {
        switch kind {
        case .string, .attributedString: return "text"
        case .webURL, .schemeURL: return "link"
        case .image: return "image"
        case .fileURL(let type), .data(let type, _), .asset(let type):
            if type.conforms(to: .image) { return "image" }
            if type.conforms(to: .movie) || type.conforms(to: .audiovisualContent) { return "movie" }
            return "file"
        case .array(let kinds): return kinds.first.map(historyKind) ?? "file"
        default: return "file"
        }
    }
}
