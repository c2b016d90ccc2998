/// "Did you mean…?" for mistyped names, by edit distance.
public enum Suggestions {
    /// The one to three candidates closest to `typed`, closest first, among those close enough
    /// to be a typo (or that `typed` begins).
    public static func closest(to typed: String, among candidates: [String]) -> [String] {
        let lowered = typed.lowercased()
        let limit = max(2, lowered.count / 3)
        let scored = candidates.map { candidate -> (String, Int) in
            let target = candidate.lowercased()
            let distance = target.hasPrefix(lowered) && lowered.count >= 3 ? 1 : editDistance(lowered, target)
            return (candidate, distance)
        }
        let near = scored.filter { $0.1 <= limit }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }
        guard let best = near.first?.1 else { return [] }
        // Only the closest: "mial" suggests "mail", not every name two edits away.
        return Array(near.filter { $0.1 == best }.prefix(3).map(\.0))
    }

    /// "'a'", "'a' or 'b'", "'a', 'b' or 'c'".
    public static func phrase(_ names: [String]) -> String {
        let quoted = names.map { "'\($0)'" }
        guard quoted.count > 1 else { return quoted.first ?? "" }
        return quoted.dropLast().joined(separator: ", ") + " or " + quoted.last!
    }

    /// Damerau–Levenshtein distance (optimal string alignment): insertions, deletions,
    /// substitutions and swaps of neighbours each cost one, so "mial" is one away from "mail".
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var best = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    best = min(best, table[i - 2][j - 2] + 1)
                }
                table[i][j] = best
            }
        }
        return table[a.count][b.count]
    }
}
