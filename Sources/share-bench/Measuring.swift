import Foundation

/// The clock every measurement uses: monotonic, and it keeps counting while the process sleeps.
let benchClock = ContinuousClock()

/// Times `body` on `benchClock`.
@MainActor
func timed<T>(_ body: () throws -> T) rethrows -> (value: T, elapsed: Duration) {
    let start = benchClock.now
    let value = try body()
    return (value, start.duration(to: benchClock.now))
}

/// Times the async `body` on `benchClock`.
@MainActor
func timedAsync<T>(_ body: () async throws -> T) async rethrows -> (value: T, elapsed: Duration) {
    let start = benchClock.now
    let value = try await body()
    return (value, start.duration(to: benchClock.now))
}

/// Several timings of the same thing.
struct Samples {
    private(set) var values: [Duration] = []

    mutating func add(_ duration: Duration) { values.append(duration) }

    var count: Int { values.count }
    var min: Duration { values.min() ?? .zero }
    var max: Duration { values.max() ?? .zero }

    /// The middle value; the mean of the two middle values for an even count.
    var median: Duration {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .zero }
        let middle = sorted.count / 2
        if sorted.count.isMultiple(of: 2) { return (sorted[middle - 1] + sorted[middle]) / 2 }
        return sorted[middle]
    }

    /// "1.23 ms" for one value, "1.23 ms (1.10–1.50)" for several.
    var summary: String {
        guard count > 1 else { return median.formatted }
        return "\(median.formatted) (\(min.formatted)–\(max.formatted))"
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// A short human reading with three significant figures: "85.2 µs", "4.31 ms", "10.0 s".
    var formatted: String {
        let seconds = inSeconds
        let (value, unit): (Double, String) =
            switch abs(seconds) {
            case 1...: (seconds, "s")
            case 1e-3...: (seconds * 1e3, "ms")
            case 1e-6...: (seconds * 1e6, "µs")
            default: (seconds * 1e9, "ns")
            }
        return significant(value) + " " + unit
    }

    /// How many times longer `self` is than `other`.
    func ratio(to other: Duration) -> Double {
        let denominator = other.inSeconds
        return denominator == 0 ? .infinity : inSeconds / denominator
    }
}

/// `value` with three significant figures, without exponent notation.
func significant(_ value: Double) -> String {
    guard value.isFinite else { return "∞" }
    let decimals: Int
    switch abs(value) {
    case 100...: decimals = 0
    case 10...: decimals = 1
    case 1...: decimals = 2
    case 0: decimals = 0
    case let magnitude: decimals = Int((-log10(magnitude)).rounded(.down)) + 3
    }
    return String(format: "%.\(decimals)f", value)
}

/// A ratio for a table cell: "0.126×", "9,870×".
func formatRatio(_ ratio: Double) -> String {
    guard ratio.isFinite else { return "∞" }
    if ratio >= 1000 {
        let digits = Array(String(Int(ratio.rounded())))
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index).isMultiple(of: 3) { grouped += "," }
            grouped.append(digit)
        }
        return grouped + "×"
    }
    return significant(ratio) + "×"
}

/// A Markdown table, padded so it also reads well in a terminal.
struct Table {
    let header: [String]
    private(set) var rows: [[String]] = []

    init(_ header: String...) { self.header = header }

    init(_ header: [String]) { self.header = header }

    mutating func add(_ cells: String...) { add(cells) }

    mutating func add(_ cells: [String]) {
        precondition(cells.count == header.count, "a row needs \(header.count) cells, got \(cells.count)")
        rows.append(cells)
    }

    var rendered: String {
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            let padded = cells.enumerated().map { column, cell in
                cell + String(repeating: " ", count: widths[column] - cell.count)
            }
            return "| " + padded.joined(separator: " | ") + " |"
        }
        let rule = "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|"
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
    }
}

/// Progress notes go to standard error, so standard output holds only the report.
func note(_ message: String) {
    FileHandle.standardError.write(Data(("… " + message + "\n").utf8))
}

/// The 1-, 5- and 15-minute load averages, from `/proc/loadavg`; nil where there is none.
func loadAverage() -> String? {
    guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
    return text.split(separator: " ").prefix(3).joined(separator: " ")
}
