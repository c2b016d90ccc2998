import Foundation
import ShareSheet

/// A paper size by its PWG 5101.1 self-describing name (`iso_a4_210x297mm`), in points,
/// portrait. The `--media` / `media` option takes either that name or a short alias (`a4`).
public struct PaperSize: Sendable, Hashable, CustomStringConvertible {
    /// The PWG name CUPS and IPP printers understand.
    public let name: String
    /// Width and height in points (1/72 inch), portrait.
    public let size: CGSize

    /// ISO A4, 210 × 297 mm.
    public static let a4 = PaperSize(name: "iso_a4_210x297mm", millimetres: 210, 297)
    /// ISO A3, 297 × 420 mm.
    public static let a3 = PaperSize(name: "iso_a3_297x420mm", millimetres: 297, 420)
    /// ISO A5, 148 × 210 mm.
    public static let a5 = PaperSize(name: "iso_a5_148x210mm", millimetres: 148, 210)
    /// US Letter, 8.5 × 11 in.
    public static let letter = PaperSize(name: "na_letter_8.5x11in", inches: 8.5, 11)
    /// US Legal, 8.5 × 14 in.
    public static let legal = PaperSize(name: "na_legal_8.5x14in", inches: 8.5, 14)
    /// Tabloid, 11 × 17 in.
    public static let tabloid = PaperSize(name: "na_ledger_11x17in", inches: 11, 17)

    private static let aliases: [String: PaperSize] = [
        "a4": .a4, "a3": .a3, "a5": .a5, "letter": .letter, "us-letter": .letter, "legal": .legal,
        "tabloid": .tabloid, "ledger": .tabloid,
    ]

    /// The sizes a document is most often printed or saved on, A4 first.
    public static let common: [PaperSize] = [.a4, .letter, .legal, .a3, .a5, .tabloid]

    /// The size as people name it: "A4", "US Letter"; for another PWG name its middle part
    /// and its measures ("B5 · 176 × 250 mm").
    public var title: String {
        switch self {
        case .a4: return "A4"
        case .a3: return "A3"
        case .a5: return "A5"
        case .letter: return "US Letter"
        case .legal: return "US Legal"
        case .tabloid: return "Tabloid"
        default:
            let parts = name.split(separator: "_")
            guard parts.count >= 3, let measures = parts.last else { return name }
            // "b5" is said "B5"; longer words start with a capital ("executive" → "Executive").
            let label = parts[1].split(separator: "-").map { word in
                word.count <= 3 ? word.uppercased() : word.prefix(1).uppercased() + word.dropFirst()
            }.joined(separator: " ")
            let unit = measures.suffix(2)
            let numbers = measures.dropLast(2).replacingOccurrences(of: "x", with: " × ")
            return "\(label) · \(numbers) \(unit)"
        }
    }

    /// The short names `media` accepts besides PWG names.
    public static var aliasNames: [String] { aliases.keys.sorted() }

    private init(name: String, millimetres width: Double, _ height: Double) {
        self.name = name
        size = CGSize(width: width * 72 / 25.4, height: height * 72 / 25.4)
    }

    private init(name: String, inches width: Double, _ height: Double) {
        self.name = name
        size = CGSize(width: width * 72, height: height * 72)
    }

    /// The paper called `name`: an alias (`a4`, `letter`…) or any PWG self-describing name
    /// whose last part is `WxHmm` or `WxHin`; nil when it is neither.
    public init?(named name: String) {
        let lowered = name.lowercased()
        if let known = Self.aliases[lowered] {
            self = known
            return
        }
        guard let dimensions = lowered.split(separator: "_").last, lowered.split(separator: "_").count >= 3 else { return nil }
        let unit = dimensions.suffix(2)
        guard unit == "mm" || unit == "in" else { return nil }
        let numbers = dimensions.dropLast(2).split(separator: "x")
        guard numbers.count == 2, let width = Double(numbers[0]), let height = Double(numbers[1]), width > 0, height > 0
        else { return nil }
        if unit == "mm" {
            self.init(name: lowered, millimetres: width, height)
        } else {
            self.init(name: lowered, inches: width, height)
        }
    }

    /// The size turned for `orientation`.
    func size(for orientation: PrintInfo.Orientation) -> CGSize {
        orientation == .landscape ? CGSize(width: size.height, height: size.width) : size
    }

    public var description: String { name }
}
