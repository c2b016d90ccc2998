import Foundation

/// A page selection like `1-3,5,8-`: 1-based, inclusive, open-ended ranges allowed.
public struct PageRanges: Sendable, Hashable, CustomStringConvertible {
    /// The ranges as given, 1-based and inclusive; `Int.max` for an open end.
    public let ranges: [ClosedRange<Int>]

    /// Parses `text`; nil when it is not a list of pages and ranges.
    public init?(_ text: String) {
        var ranges: [ClosedRange<Int>] = []
        for part in text.split(separator: ",") {
            let piece = part.trimmingCharacters(in: .whitespaces)
            let bounds = piece.split(separator: "-", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            switch bounds.count {
            case 1:
                guard let page = Int(bounds[0]), page >= 1 else { return nil }
                ranges.append(page...page)
            case 2:
                guard let first = Int(bounds[0]), first >= 1 else { return nil }
                let last = bounds[1].isEmpty ? Int.max : Int(bounds[1])
                guard let last, last >= first else { return nil }
                ranges.append(first...last)
            default:
                return nil
            }
        }
        guard !ranges.isEmpty else { return nil }
        self.ranges = ranges
    }

    /// True when 1-based page `number` is selected.
    public func contains(_ number: Int) -> Bool { ranges.contains { $0.contains(number) } }

    /// The IPP `page-ranges` form: `1-3,5,8-2147483647`.
    public var description: String {
        ranges.map { $0.lowerBound == $0.upperBound ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound == Int.max ? Int(Int32.max) : $0.upperBound)" }
            .joined(separator: ",")
    }
}
