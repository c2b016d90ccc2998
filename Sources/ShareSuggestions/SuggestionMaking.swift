import Foundation
import ShareHistory
import ShareSheet

/// Turns the history's ranking, the contacts and the pinned devices into candidates, best
/// first (SPEC §12): whoever the history ranks (score above 0), then the pinned devices, then
/// the contacts with an address or number, each of those two by name. One person reached by
/// two activities is two candidates (Mail to Ana, Message to Ana).
@MainActor
struct SuggestionMaking {
    /// The activities on the sheet, by type.
    var offered: [ActivityType: Activity]
    /// Contact names and photos for addresses, read the first time a candidate needs them.
    var contacts: LazyContacts
    /// The names of applications by desktop id.
    var applicationName: (String) -> (name: String, iconName: String?)?
    /// True for a device that shows a pinned device's alias with another fingerprint: left out.
    var isImpostor: @MainActor (_ alias: String, _ fingerprint: String) -> Bool = { _, _ in false }
    /// What the ranking's scores are multiplied by: a kept ranking read some time ago
    /// (`RankingCache`) is scaled here, for the few candidates made, not target by target.
    var scoreScale = 1.0

    /// The candidates, best first; with a `limit`, they stop once that many offered ones are
    /// made, so a sheet never names more people than it shows (nor looks up their applications).
    func candidates(ranking: HistoryRanking, pinnedDevices: [PinnedDevice], limit: Int? = nil) -> [SuggestionCandidate] {
        var collected = Collected(limit: limit, isImpostor: isImpostor)
        for index in ranking.targets.indices where ranking.targets[index].score > 0 {
            guard !collected.isFull else { break }
            guard let suggestion = suggestion(for: ranking.targets[index]) else { continue }
            let ranked = ranking.targets[index]
            collected.add(
                SuggestionCandidate(
                    suggestion: suggestion, origin: .history, uses: ranked.uses, lastUsed: ranked.lastUsed,
                    score: ranked.score * scoreScale, isOffered: offered[suggestion.activityType] != nil))
        }
        return addingDevicesAndContacts(to: &collected, pinnedDevices: pinnedDevices)
    }

    /// The candidates from a snapshot's (`SuggestionSnapshot`) instead of the ranking: the same
    /// as `candidates(ranking:…)` gives for the history it was made from. Nil when the snapshot
    /// runs out of candidates before `limit` offered ones and the history has more.
    func candidates(snapshot: SuggestionSnapshot, pinnedDevices: [PinnedDevice], limit: Int) -> [SuggestionCandidate]? {
        var collected = Collected(limit: limit, isImpostor: isImpostor)
        for candidate in snapshot.candidates {
            guard !collected.isFull else { break }
            // A line that cannot be read: the sheet reads the history instead.
            guard let candidate else { return nil }
            var suggestion = candidate.suggestion
            if candidate.isShareTarget {
                guard let made = shareTargetSuggestion(String(suggestion.id.dropFirst(Self.shareTargetPrefix.count)), type: suggestion.activityType)
                else { continue }
                suggestion = made
            }
            collected.add(
                SuggestionCandidate(
                    suggestion: suggestion, origin: .history, uses: candidate.uses, lastUsed: candidate.lastUsed,
                    score: candidate.score * scoreScale, isOffered: offered[suggestion.activityType] != nil))
        }
        guard collected.isFull || snapshot.complete else { return nil }
        return addingDevicesAndContacts(to: &collected, pinnedDevices: pinnedDevices)
    }

    /// The history's candidates for a snapshot: every target it ranks above 0 up to `limit`,
    /// whatever the sheet offers, resolved (contact names and photos, application names); a
    /// share target's is completed from the sheet's activity when the snapshot is used.
    func snapshotCandidates(ranking: HistoryRanking, limit: Int) -> (candidates: [SuggestionSnapshot.Candidate], complete: Bool) {
        var made: [SuggestionSnapshot.Candidate] = []
        var seen: Set<String> = []
        for ranked in ranking.targets where ranked.score > 0 {
            guard made.count < limit else { return (made, false) }
            let suggestion: ActivitySuggestion?
            if ranked.target.kind == .shareTarget {
                suggestion = ActivitySuggestion(
                    id: Self.shareTargetPrefix + ranked.target.value, activityType: ActivityType(ranked.activityType),
                    title: ranked.target.value, iconName: "", presets: [:])
            } else {
                suggestion = self.suggestion(for: ranked)
            }
            guard let suggestion, seen.insert(suggestion.id).inserted else { continue }
            made.append(
                SuggestionSnapshot.Candidate(
                    suggestion: suggestion, uses: ranked.uses, lastUsed: ranked.lastUsed, score: ranked.score * scoreScale))
        }
        return (made, true)
    }

    /// The pinned devices, then the contacts while there is room (the contacts are read only then).
    private func addingDevicesAndContacts(to collected: inout Collected, pinnedDevices: [PinnedDevice]) -> [SuggestionCandidate] {
        for device in pinnedDevices.sorted(by: { $0.alias.localizedCaseInsensitiveCompare($1.alias) == .orderedAscending }) {
            guard !collected.isFull else { break }
            collected.add(
                SuggestionCandidate(
                    suggestion: Self.deviceSuggestion(fingerprint: device.fingerprint, alias: device.alias), origin: .pinnedDevice,
                    uses: 0, lastUsed: nil, score: 0, isOffered: offered[.airDrop] != nil))
        }
        // Read only when there is room for contacts (a person the history ranks reads them too).
        for contact in collected.isFull ? [] : contacts.directory.all {
            guard !collected.isFull else { break }
            for suggestion in contactSuggestions(contact) {
                collected.add(
                    SuggestionCandidate(
                        suggestion: suggestion, origin: .contact, uses: 0, lastUsed: nil, score: 0,
                        isOffered: offered[suggestion.activityType] != nil))
            }
        }
        return collected.made
    }

    /// The candidates made so far: each suggestion once, impostors left out, up to `limit` offered.
    @MainActor
    private struct Collected {
        let limit: Int?
        let isImpostor: @MainActor (_ alias: String, _ fingerprint: String) -> Bool
        private(set) var made: [SuggestionCandidate] = []
        private var seen: Set<String> = []
        private var offeredCount = 0

        init(limit: Int?, isImpostor: @escaping @MainActor (_ alias: String, _ fingerprint: String) -> Bool) {
            self.limit = limit
            self.isImpostor = isImpostor
        }

        var isFull: Bool { limit.map { offeredCount >= $0 } ?? false }

        mutating func add(_ candidate: SuggestionCandidate) {
            let suggestion = candidate.suggestion
            guard !isFull, seen.insert(suggestion.id).inserted else { return }
            if suggestion.activityType == .airDrop, let fingerprint = suggestion.presets["fingerprint"],
                isImpostor(suggestion.title, fingerprint)
            {
                return
            }
            made.append(candidate)
            if candidate.isOffered { offeredCount += 1 }
        }
    }

    /// The suggestion for one ranked target, or nil for a kind of target nobody picks again
    /// (a contact a photo was assigned to).
    func suggestion(for ranked: RankedTarget) -> ActivitySuggestion? {
        let type = ActivityType(ranked.activityType)
        let value = ranked.target.value
        switch (ranked.target.kind, type) {
        case (.recipient, .mail), (.recipient, .message):
            return recipientSuggestion(value, type: type, name: ranked.target.name)
        case (.device, .airDrop):
            return Self.deviceSuggestion(fingerprint: Self.isFingerprint(value) ? value : nil, alias: ranked.target.name ?? value)
        case (.application, .openIn):
            let application = applicationName(value)
            return ActivitySuggestion(
                id: "open-in:\(value)", activityType: type, title: application?.name ?? value, subtitle: "Open In",
                iconName: application?.iconName ?? "application-x-executable", presets: ["app": value])
        case (.printer, .print):
            return ActivitySuggestion(
                id: "print:\(value)", activityType: type, title: value, subtitle: "Print", iconName: "printer", presets: ["printer": value])
        case (.shareTarget, _):
            return shareTargetSuggestion(value, type: type)
        default:
            return nil
        }
    }

    /// What a share target's suggestion id starts with.
    nonisolated static let shareTargetPrefix = "target:"

    /// A share target's suggestion, named and drawn as its activity on the sheet; nil when the
    /// sheet does not offer it.
    private func shareTargetSuggestion(_ value: String, type: ActivityType) -> ActivitySuggestion? {
        guard let activity = offered[type] else { return nil }
        return ActivitySuggestion(
            id: Self.shareTargetPrefix + value, activityType: type, title: activity.activityTitle ?? value, subtitle: "Share target",
            iconName: (activity as? any ActivityIconNaming)?.iconName ?? "application-x-executable", presets: [:])
    }

    /// Mail or Message to `address`, under the contact's name when the folder knows it.
    private func recipientSuggestion(_ address: String, type: ActivityType, name: String?) -> ActivitySuggestion {
        let contact = contacts.directory.contact(for: address)
        let title = contact?.name ?? name ?? address
        let word = type == .mail ? "Mail" : "Message"
        return ActivitySuggestion(
            id: "\(type == .mail ? "mail" : "message"):\(address.lowercased())", activityType: type, title: title,
            subtitle: title == address ? word : "\(word) · \(address)", iconName: "avatar-default",
            photoPath: contact?.photoPath, presets: ["to": address])
    }

    /// AirDrop to a device: by fingerprint when known, so another device taking its alias is never sent to.
    static func deviceSuggestion(fingerprint: String?, alias: String) -> ActivitySuggestion {
        var presets = ["to": fingerprint ?? alias]
        if let fingerprint { presets["fingerprint"] = fingerprint }
        return ActivitySuggestion(
            id: "airdrop:\((fingerprint ?? alias).lowercased())", activityType: .airDrop, title: alias, subtitle: "AirDrop",
            iconName: "phone", presets: presets)
    }

    /// Mail to a contact's first address, Message to its first number.
    private func contactSuggestions(_ contact: ContactDirectory.Entry) -> [ActivitySuggestion] {
        var made: [ActivitySuggestion] = []
        if let address = contact.addresses.first {
            made.append(recipientSuggestion(address, type: .mail, name: contact.name))
        }
        if let number = contact.numbers.first {
            made.append(recipientSuggestion(number, type: .message, name: contact.name))
        }
        return made
    }

    /// A LocalSend fingerprint: the SHA-256 of the device's certificate, 64 hexadecimal digits.
    static func isFingerprint(_ value: String) -> Bool {
        value.utf8.count == 64 && value.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0 | 0x20) }
    }
}

/// The contacts of a sheet's suggestions, read when the first candidate needs them: most
/// sheets are filled by the history alone, and then only a person it ranks needs a name.
@MainActor
final class LazyContacts {
    private let load: @MainActor () -> ContactDirectory
    private var loaded: ContactDirectory?

    /// Contacts that `load` reads, once.
    init(_ load: @escaping @MainActor () -> ContactDirectory) { self.load = load }

    /// The contacts if a candidate needed them.
    var loadedDirectory: ContactDirectory? { loaded }

    /// The contacts `load` read, read now if they were not.
    var directory: ContactDirectory {
        if let loaded { return loaded }
        let directory = load()
        loaded = directory
        return directory
    }
}

/// A device the person pinned, as the suggestions need it.
public struct PinnedDevice: Sendable, Equatable {
    /// Its certificate's fingerprint.
    public var fingerprint: String
    /// Its alias.
    public var alias: String

    /// Describes a pinned device.
    public init(fingerprint: String, alias: String) {
        self.fingerprint = fingerprint
        self.alias = alias
    }
}
