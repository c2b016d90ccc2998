import Foundation
import ShareHistory
import ShareSheet
import ShareSheetSystem
import ShareSuggestions
import Sharing

/// `share suggestions [--explain] [--json] ITEM...`: the people, devices and applications the
/// sheet would suggest for these items (SPEC §12), and with `--explain` every candidate with
/// the parts of its score, so the person can see why the sheet puts someone first.
enum SuggestionsCommand: ShareSubcommand {
    static let spec = CommandSpec(
        name: "suggestions", summary: "who and what the sheet suggests for these items, and why",
        about: "Suggestions come from the share history, ranked per kind of item (image, movie, text, link, file): "
            + "each share counts 2^(-age/14 days), so a share today counts 1 and one two weeks old 0.5; then pinned "
            + "devices and contacts, up to 8. `share --suggestion ID ITEM...` picks one.",
        options: [
            .value("--text", "TEXT", "suggest for TEXT as an item (repeatable)", repeatable: true),
            .flag("--explain", "every candidate with its uses, last use, score and whether it is offered; the activities' scores"),
            .flag("--json", "print the suggestions, or the explanation, as JSON"), JSONOutput.prettyOption,
        ],
        operands: "ITEM...", operandKind: .file,
        examples: ["share suggestions photo.jpg", "share suggestions --explain notes.txt", "share suggestions --json https://swift.org"])

    static func run(_ arguments: [String], context: CommandContext) async throws -> Termination {
        let parsed = try options(arguments)
        let format = try JSONOutput.format(parsed, command: "suggestions")
        let inputs =
            parsed.operands.map { $0 == "-" ? ShareItemInput.standardInput : .operand($0) }
            + parsed.all("--text").map(ShareItemInput.text)
        guard !inputs.isEmpty else {
            throw ShareError(.usage, "suggestions: give the items to suggest for (a file, a URL, - or --text)")
        }
        let host = ShareHost(registry: context.registry)
        let source = SuggestionSourceMaking.source(environment: host.environment, warn: { context.warn($0) })
        host.suggestionSourceMaker = { source }
        let configuration = try host.environment.loadConfiguration()
        let settings = try SheetSettings(configuration: configuration)
        let historyOn = try HistorySettings(configuration: configuration).enabled
        let resolver = ItemResolver(
            currentDirectory: context.currentDirectory, standardInput: context.standardInputDescriptor,
            standardInputLimit: try host.standardInputLimit(), labels: context.argumentLabels)
        let items = try await resolver.resolve(inputs)
        defer { items.removeSpooledFiles() }
        let controller = try host.controller(for: items)
        let sheet = controller.sheet
        let listed = sheet.suggestions.map { SheetListing.Suggestion($0, activity: host.names.name(of: $0.activityType)) }
        guard parsed.flag("--explain") else {
            if let format {
                try JSONOutput.write(listed, format: format, to: context)
                return .success
            }
            var text = settings.suggests ? "" : "Suggestions are off ([sheet] suggestions=false).\n"
            if listed.isEmpty, settings.suggests { text += "No suggestions for these items.\n" }
            let idWidth = listed.map(\.id.count).max() ?? 0
            for (number, suggestion) in sheet.suggestions.enumerated() {
                let words = host.names.words(for: suggestion)
                let detail = words.detail.map { "  " + $0 } ?? ""
                text += "\(number + 1)  \(suggestion.id.padding(idWidth))  \(words.phrase)\(detail)\n"
            }
            context.standardOutput.write(text)
            return .success
        }
        let explanation = SuggestionExplanation(
            source: source, sheet: sheet, names: host.names, labels: items.map(\.label))
        if let format {
            try JSONOutput.write(explanation, format: format, to: context)
            return .success
        }
        var text = ""
        if !settings.suggests { text += "Suggestions are off ([sheet] suggestions=false): the sheet shows none of these.\n" }
        if !historyOn { text += "History is off ([history] enabled=false): only contacts and pinned devices are candidates.\n" }
        if !settings.ordersByUse { text += "[sheet] order=fixed: the activities keep their built-in order.\n" }
        context.standardOutput.write(text + explanation.text)
        return .success
    }
}

/// What `share suggestions --explain` prints: every candidate with the parts of its score, and
/// the activities' scores, for the kinds of the items given.
@MainActor
struct SuggestionExplanation: Encodable {
    /// The kinds the history was ranked over (`file`, `image`…).
    var kinds: [String]
    /// Every candidate: the history's, then the pinned devices and contacts a sheet reaches.
    var candidates: [Candidate]
    /// Contacts (and pinned devices) past the sheet's 8 suggestions, left out of `candidates`.
    var leftOut: Int
    /// The activities used for such items, best first.
    var activities: [Activity]

    /// One candidate.
    struct Candidate: Encodable {
        var id: String
        var activity: String
        var activityType: String
        var title: String
        var subtitle: String?
        /// `history`, `contact` or `pinned-device`.
        var origin: String
        /// The shares that went to it (frequency).
        var uses: Int
        /// The last of them (recency), ISO 8601 in UTC; null when never shared with.
        var lastUsed: String?
        var score: Double
        /// True when its activity is offered for these items.
        var offered: Bool
        /// Its number on the sheet, when the sheet suggests it; null when it does not.
        var suggested: Int?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(activity, forKey: .activity)
            try container.encode(activityType, forKey: .activityType)
            try container.encode(title, forKey: .title)
            try container.encode(subtitle, forKey: .subtitle)
            try container.encode(origin, forKey: .origin)
            try container.encode(uses, forKey: .uses)
            try container.encode(lastUsed, forKey: .lastUsed)
            try container.encode(score, forKey: .score)
            try container.encode(offered, forKey: .offered)
            try container.encode(suggested, forKey: .suggested)
        }

        private enum CodingKeys: String, CodingKey {
            case id, activity, activityType, title, subtitle, origin, uses, lastUsed, score, offered, suggested
        }
    }

    /// One activity's parts.
    struct Activity: Encodable {
        var activity: String
        var activityType: String
        var uses: Int
        var lastUsed: String
        var score: Double
    }

    /// The labels of the items, for the text's first line.
    private var labels: [String] = []
    /// The candidates' times, for the text (local time), by id.
    private var times: [String: Date] = [:]
    private var activityTimes: [String: Date] = [:]

    private enum CodingKeys: String, CodingKey { case kinds, candidates, leftOut, activities }

    init(source: HistorySuggestionSource, sheet: ActivitySheet, names: ActivityNames, labels: [String]) {
        self.labels = labels
        let limit = ActivityViewController.suggestionLimit
        let reached = source.candidates(for: sheet.itemKinds, offered: sheet.activities, limit: limit)
        let all = source.candidates(for: sheet.itemKinds, offered: sheet.activities)
        let reachedIDs = Set(reached.map(\.suggestion.id))
        // Every history candidate, the rest as far as a sheet reaches.
        let shown = all.filter { $0.origin == .history || reachedIDs.contains($0.suggestion.id) }
        leftOut = all.count - shown.count
        kinds = Array(Set(sheet.itemKinds.map(HistoryRecording.historyKind))).sorted()
        var numbers: [String: Int] = [:]
        for (index, suggestion) in sheet.suggestions.enumerated() { numbers[suggestion.id] = index + 1 }
        candidates = shown.map { candidate in
            let suggestion = candidate.suggestion
            return Candidate(
                id: suggestion.id, activity: names.name(of: suggestion.activityType), activityType: suggestion.activityType.rawValue,
                title: suggestion.title, subtitle: suggestion.subtitle.isEmpty ? nil : suggestion.subtitle,
                origin: candidate.origin.rawValue, uses: candidate.uses, lastUsed: candidate.lastUsed.map(Self.iso8601),
                score: candidate.score, offered: candidate.isOffered, suggested: numbers[suggestion.id])
        }
        for candidate in shown { times[candidate.suggestion.id] = candidate.lastUsed }
        activities = source.ranking(for: sheet.itemKinds).activities.map { ranked in
            Activity(
                activity: ranked.activity, activityType: ranked.activityType, uses: ranked.uses,
                lastUsed: Self.iso8601(ranked.lastUsed), score: ranked.score)
        }
        for ranked in source.ranking(for: sheet.itemKinds).activities { activityTimes[ranked.activityType] = ranked.lastUsed }
    }

    /// The explanation for people: a line on the formula, the candidates as a table, the activities.
    var text: String {
        var text = "Items: " + labels.joined(separator: ", ") + " (" + kinds.joined(separator: ", ") + ")\n"
        text += "Each share that held such an item counts 2^(-age/14 days) (1 today, 0.5 two weeks ago); a score adds them up.\n"
        text += "Candidates:\n"
        if candidates.isEmpty { text += "  (none)\n" }
        var rows = [["#", "id", "from", "uses", "last used", "score", "offered"]]
        for candidate in candidates {
            rows.append([
                candidate.suggested.map(String.init) ?? "-", candidate.id, candidate.origin, String(candidate.uses),
                times[candidate.id].map(HistoryCommand.dateText) ?? "-", Self.scoreText(candidate.score),
                candidate.offered ? "yes" : "no",
            ])
        }
        if !candidates.isEmpty { text += Self.table(rows, rightAligned: [3, 5]) }
        if leftOut > 0 {
            text += "  and \(leftOut) more \(leftOut == 1 ? "contact" : "contacts") left out: a sheet suggests at most "
                + "\(ActivityViewController.suggestionLimit)\n"
        }
        text += "Activities:\n"
        if activities.isEmpty { text += "  (none used for such items)\n" }
        var activityRows = [["activity", "uses", "last used", "score"]]
        for activity in activities {
            activityRows.append([
                activity.activity, String(activity.uses), activityTimes[activity.activityType].map(HistoryCommand.dateText) ?? "-",
                Self.scoreText(activity.score),
            ])
        }
        if !activities.isEmpty { text += Self.table(activityRows, rightAligned: [1, 3]) }
        return text
    }

    /// A score with 3 decimals: `3.000`, `0.500`.
    static func scoreText(_ score: Double) -> String { String(format: "%.3f", score) }

    /// Rows as columns two spaces apart, indented by two.
    private static func table(_ rows: [[String]], rightAligned: Set<Int>) -> String {
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            "  " + row.indices.map { column in
                let cell = row[column]
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                if column == row.count - 1, !rightAligned.contains(column) { return cell }
                return rightAligned.contains(column) ? pad + cell : cell + pad
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }

    private static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}
