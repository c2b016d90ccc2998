import ShareSheet

/// The suggestions this process last showed for a kind of sheet, shown again while nothing they
/// came from changed: the kept ranking (`RankingCache`'s generation), the contacts they named
/// (`ContactIndex.isCurrent`), the pinned devices and the sheet's activities. A second sheet,
/// as the service builds them, then costs a few comparisons instead of making 8 candidates
/// (BENCHMARKS.md, "Suggestions").
///
/// Not kept: suggestions from which an impostor was left out (the devices seen change), and
/// those made without a kept ranking. Checked again on every use: no suggested device has turned
/// into an impostor. An application's name is as it was when the suggestions were made, until
/// the next share changes the ranking.
@MainActor
enum FinishedSuggestions {
    private struct Finished {
        var rankingGeneration: Int
        var pinned: [PinnedDevice]
        var contacts: (folder: String, generation: Int)?
        var candidates: [SuggestionCandidate]
    }

    /// A few kinds of sheet (by items and activities): more than a person alternates between.
    private static let capacity = 16
    private static var finished: [String: Finished] = [:]

    static func forget() { finished = [:] }

    /// What tells two sheets' suggestions apart besides the ranking: the items' history kinds,
    /// the activities offered, and a share target's name and icon (its suggestion shows them).
    static func key(names: Set<String>, offered: [Activity]) -> String {
        var key = names.sorted().joined(separator: ",")
        for activity in offered {
            let type = activity.activityType?.rawValue ?? ""
            key += "\u{1}" + type
            if type.hasPrefix("org.sharesheet.target.") {
                key += "\u{2}" + (activity.activityTitle ?? "") + "\u{2}" + ((activity as? any ActivityIconNaming)?.iconName ?? "")
            }
        }
        return key
    }

    /// The suggestions kept under `key`, when they still hold.
    static func known(
        key: String, rankingGeneration: Int, pinned: [PinnedDevice], isImpostor: (_ alias: String, _ fingerprint: String) -> Bool
    ) -> [SuggestionCandidate]? {
        guard let kept = finished[key], kept.rankingGeneration == rankingGeneration, kept.pinned == pinned,
            kept.contacts.map({ ContactIndex.isCurrent(folder: $0.folder, generation: $0.generation) }) ?? true
        else { return nil }
        let impostor = kept.candidates.contains { candidate in
            let suggestion = candidate.suggestion
            guard suggestion.activityType == .airDrop, let fingerprint = suggestion.presets["fingerprint"] else { return false }
            return isImpostor(suggestion.title, fingerprint)
        }
        return impostor ? nil : kept.candidates
    }

    /// Keeps `candidates` (the offered ones shown); `contacts` are the contacts read to make them, if any were.
    static func keep(
        _ candidates: [SuggestionCandidate], key: String, rankingGeneration: Int, pinned: [PinnedDevice],
        contacts: ContactDirectory?
    ) {
        // Contacts that cannot be checked with one stat (a folder that is missing now) are not kept.
        if let contacts, contacts.origin == nil { return }
        if finished.count >= capacity, finished[key] == nil { finished.removeAll() }
        finished[key] = Finished(
            rankingGeneration: rankingGeneration, pinned: pinned, contacts: contacts?.origin, candidates: candidates)
    }
}
