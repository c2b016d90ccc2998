import ShareSheet

/// Which items go, as a person names them: positions from 1 in the order the items were given
/// (`--only 1,3`, `2-4`), turned into the positions `ItemChoices.leftOut` keeps.
public enum ItemSelection {
    /// The positions (from 0) left out when only those `named` go, out of `count` items.
    /// - Parameter named: numbers and ranges from 1, separated by commas: `1,3`, `2-4`.
    /// - Throws: a usage error naming what is not a position of one of the items.
    public static func leftOut(keeping named: String, of count: Int) throws -> Set<Int> {
        var kept = Set<Int>()
        for part in named.split(separator: ",", omittingEmptySubsequences: false) {
            let text = part.trimmingCharacters(in: .whitespaces)
            let bounds = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            guard let first = Int(bounds[0]), let last = bounds.count == 2 ? Int(bounds[1]) : first, first <= last else {
                throw ShareError(.usage, "'\(text)' is not an item number or a range such as 2-4")
            }
            for position in first...last {
                guard (1...count).contains(position) else {
                    throw ShareError(
                        .usage, "there is no item \(position): \(count) \(count == 1 ? "item was" : "items were") given")
                }
                kept.insert(position - 1)
            }
        }
        return Set(0..<count).subtracting(kept)
    }
}
