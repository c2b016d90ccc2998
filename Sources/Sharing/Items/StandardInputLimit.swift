import ShareSheet
import ShareSheetSystem

/// The most bytes the `-` item may bring: `[limits] stdin=` in the configuration file, a size
/// such as `4G`, `500M`, `64K` or a number of bytes (binary units: `1K` is 1024 bytes).
public struct StandardInputLimit: Sendable, Equatable, CustomStringConvertible {
    /// The most bytes accepted.
    public var byteCount: Int64

    /// 4 GiB, when the configuration says nothing.
    public static let `default` = StandardInputLimit(byteCount: 4 << 30)

    /// The configuration group and key that set it.
    public static let group = "limits"
    /// The key in `[limits]`.
    public static let key = "stdin"

    /// A limit of `byteCount` bytes.
    public init(byteCount: Int64) {
        self.byteCount = byteCount
    }

    /// Reads a size: digits, then optionally `K`, `M`, `G` or `T` (with or without `iB`/`B`),
    /// or `B`; spaces around are ignored. Nil for anything else, zero, or more than `Int64` holds.
    public init?(parsing text: String) {
        var rest = Substring(text.trimmingSpaces)
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let number = Int64(digits) else { return nil }
        rest = rest.dropFirst(digits.count).drop { $0 == " " }
        let units: [(suffixes: [String], shift: Int64)] = [
            (["", "b"], 0), (["k", "kb", "kib"], 10), (["m", "mb", "mib"], 20), (["g", "gb", "gib"], 30),
            (["t", "tb", "tib"], 40),
        ]
        guard let unit = units.first(where: { $0.suffixes.contains(rest.lowercased()) }) else { return nil }
        let (product, overflow) = number.multipliedReportingOverflow(by: Int64(1) << unit.shift)
        guard !overflow, product > 0 else { return nil }
        byteCount = product
    }

    /// The limit of `configuration`: `[limits] stdin=`, else the default.
    /// - Throws: `ShareError(.configuration)` naming the key and its value when it is not a size.
    public init(configuration: Configuration) throws {
        guard let text = configuration.string(Self.key, in: Self.group) else {
            self = .default
            return
        }
        guard let limit = StandardInputLimit(parsing: text) else {
            throw ShareError(
                .configuration,
                "config: [\(Self.group)] \(Self.key)=\(text) is not a size (such as 4G, 500M or a number of bytes)")
        }
        self = limit
    }

    /// "4 GiB", "500 MiB", "64 KiB", or "1000 bytes": the largest binary unit that divides it.
    public var description: String {
        for (shift, unit) in [(40, "TiB"), (30, "GiB"), (20, "MiB"), (10, "KiB")] where byteCount % (Int64(1) << shift) == 0 {
            return "\(byteCount >> shift) \(unit)"
        }
        return byteCount == 1 ? "1 byte" : "\(byteCount) bytes"
    }

    /// The one-line reason standard input is refused when it brings more.
    var exceededMessage: String {
        "-: standard input is larger than the \(self) limit ([\(Self.group)] \(Self.key)=)"
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: Substring {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}
