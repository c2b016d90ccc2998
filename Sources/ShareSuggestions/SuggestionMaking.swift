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
    /// Contact names and photos for addresses.
    var contacts: ContactDirectory
    /// The names of applications by desktop id.
    var applicationName: (String) -> (name: String, iconName: String?)?

    func candidates(ranking: HistoryRanking, pinnedDevices: [PinnedDevice]) -> [SuggestionCandidate] {
        var made: [SuggestionCandidate] = []
        var seen: Set<String> = []
        for ranked in ranking.targets where ranked.score > 0 {
            guard let suggestion = suggestion(for: ranked), seen.insert(suggestion.id).inserted else { continue }
            made.append(
                SuggestionCandidate(
                    suggestion: suggestion, origin: .history, uses: ranked.uses, lastUsed: ranked.lastUsed, score: ranked.score,
                    isOffered: offered[suggestion.activityType] != nil))
        }
        for device in pinnedDevices.sorted(by: { $0.alias.localizedCaseInsensitiveCompare($1.alias) == .orderedAscending }) {
            let suggestion = deviceSuggestion(fingerprint: device.fingerprint, alias: device.alias)
            guard seen.insert(suggestion.id).inserted else { continue }
            made.append(
                SuggestionCandidate(
                    suggestion: suggestion, origin: .pinnedDevice, uses: 0, lastUsed: nil, score: 0,
                    isOffered: offered[.airDrop] != nil))
        }
        for contact in contacts.all {
            for suggestion in contactSuggestions(contact) where seen.insert(suggestion.id).inserted {
                made.append(
                    SuggestionCandidate(
                        suggestion: suggestion, origin: .contact, uses: 0, lastUsed: nil, score: 0,
                        isOffered: offered[suggestion.activityType] != nil))
            }
        }
        return made
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
            return deviceSuggestion(fingerprint: Self.isFingerprint(value) ? value : nil, alias: ranked.target.name ?? value)
        case (.application, .openIn):
            let application = applicationName(value)
            return ActivitySuggestion(
                id: "open-in:\(value)", activityType: type, title: application?.name ?? value, subtitle: "Open In",
                iconName: application?.iconName ?? "application-x-executable", presets: ["app": value])
        case (.printer, .print):
            return ActivitySuggestion(
                id: "print:\(value)", activityType: type, title: value, subtitle: "Print", iconName: "printer", presets: ["printer": value])
        case (.shareTarget, _):
            guard let activity = offered[type] else { return nil }
            return ActivitySuggestion(
                id: "target:\(value)", activityType: type, title: activity.activityTitle ?? value, subtitle: "Share target",
                iconName: (activity as? any ActivityIconNaming)?.iconName ?? "application-x-executable", presets: [:])
        default:
            return nil
        }
    }

    /// Mail or Message to `address`, under the contact's name when the folder knows it.
    private func recipientSuggestion(_ address: String, type: ActivityType, name: String?) -> ActivitySuggestion {
        let contact = contacts.contact(for: address)
        let title = contact?.name ?? name ?? address
        let word = type == .mail ? "Mail" : "Message"
        return ActivitySuggestion(
            id: "\(type == .mail ? "mail" : "message"):\(address.lowercased())", activityType: type, title: title,
            subtitle: title == address ? word : "\(word) · \(address)", iconName: "avatar-default",
            photoPath: contact?.photoPath, presets: ["to": address])
    }

    /// AirDrop to a device: by fingerprint when known, so another device taking its alias is never sent to.
    private func deviceSuggestion(fingerprint: String?, alias: String) -> ActivitySuggestion {
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
        value.count == 64 && value.allSatisfy(\.isHexDigit)
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
